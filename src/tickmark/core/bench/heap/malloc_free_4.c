/* heap.malloc_free_4 — one operation is one malloc of 4 bytes and one free of it, by the
 * RTOS-vs-Linux study's method: each iteration allocates 1000 blocks of 4 bytes, then frees
 * the 1000 in allocation order; the two phases are timed apart into the sub-metrics "malloc"
 * and "free" (ns per call). The blocks are not touched (their
 * addresses escape to the optimiser, so the calls cannot be elided). Not timed: nothing is set up beforehand.
 * Cold (sub-metric "cold"): one malloc and free of 4 bytes, alone, after a cache flush. */
#include "heap_common.h"

#define NBLOCKS 1000

static void *blk[NBLOCKS];

static void run(tm_ctx *ctx, uint64_t iters)
{
    if (tm_heap_rounds(ctx, blk, NBLOCKS, 4, iters) != 0)
        tm_fail(ctx, "malloc failed");
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
