/* heap.malloc_free_4 — one operation is one malloc of 4 bytes and one free of it, by the
 * RTOS-vs-Linux study's method: each iteration allocates 1000 blocks of 4 bytes, then frees
 * the 1000 in allocation order; the two phases are timed apart into the sub-metrics "malloc"
 * and "free" (ns per call). The blocks are not touched (their
 * addresses escape to the optimiser, so the calls cannot be elided). Not timed: nothing is set up beforehand.
 * Cold (sub-metric "cold"): one malloc and free of 4 bytes, alone, after a cache flush. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

#define NBLOCKS 1000

static void *blk[NBLOCKS];

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t ta = 0, tf = 0, i;
    int k;
    for (i = 0; i < iters; i++) {
        uint64_t t0 = tm_ticks(), t1, t2;
        for (k = 0; k < NBLOCKS; k++) {
            blk[k] = tm_os_alloc(4);
            if (!blk[k])
                break;
            tm_escape(blk[k]);
        }
        t1 = tm_ticks();
        if (k < NBLOCKS) {
            while (k > 0)
                tm_os_free(blk[--k]);
            tm_fail(ctx, "malloc failed");
            return;
        }
        for (k = 0; k < NBLOCKS; k++)
            tm_os_free(blk[k]);
        t2 = tm_ticks();
        ta += t1 - t0;
        tf += t2 - t1;
    }
    tm_sub_add(ctx, 0, tm_ticks_to_ns(ta));
    tm_sub_add(ctx, 1, tm_ticks_to_ns(tf));
}

static void cold(tm_ctx *ctx)
{
    void *p = tm_os_alloc(4);
    tm_escape(p);
    if (!p)
        tm_fail(ctx, "malloc(4) failed");
    tm_os_free(p);
}

TM_BENCH(heap_malloc_free_4) = {
    .name = "heap.malloc_free_4",
    .summary = "malloc + free of a 4-byte block, 1000 allocations then 1000 frees (subs: malloc, free)",
    .unit = "malloc+free",
    .ops_per_iter = NBLOCKS,
    .subs = "malloc,free",
    .run = run,
    .cold = cold,
};
