/* Shared by the heap.* benchmarks: the timed loop of an allocator's round of nblocks mallocs,
 * then nblocks frees in allocation order. Header-only and inline, so that each benchmark's
 * block count and size stay constants of its own loop. */
#ifndef TM_BENCH_HEAP_COMMON_H
#define TM_BENCH_HEAP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "tickmark/bench.h"
#include "tickmark/osal.h"

/* iters rounds of nblocks blocks of size bytes held in blk, the two phases timed apart into
 * sub-metrics 0 (malloc) and 1 (free); the blocks are not touched, their addresses escape to
 * the optimiser. 0; or -1 when a malloc failed, with the blocks of that round freed and no
 * sub-metric added (the caller fails the instance). */
static inline int tm_heap_rounds(tm_ctx *ctx, void **blk, int nblocks, size_t size, uint64_t iters)
{
    uint64_t ta = 0, tf = 0, i;
    int k;
    for (i = 0; i < iters; i++) {
        uint64_t t0 = tm_ticks(), t1, t2;
        for (k = 0; k < nblocks; k++) {
            blk[k] = tm_os_alloc(size);
            if (!blk[k])
                break;
            tm_escape(blk[k]);
        }
        t1 = tm_ticks();
        if (k < nblocks) {
            while (k > 0)
                tm_os_free(blk[--k]);
            return -1;
        }
        for (k = 0; k < nblocks; k++)
            tm_os_free(blk[k]);
        t2 = tm_ticks();
        ta += t1 - t0;
        tf += t2 - t1;
    }
    tm_sub_add(ctx, 0, tm_ticks_to_ns(ta));
    tm_sub_add(ctx, 1, tm_ticks_to_ns(tf));
    return 0;
}

#endif
