/* heap.malloc_free — one operation is one malloc of size bytes and one free of it; each
 * iteration allocates 64 blocks, then frees them in allocation order, the two phases timed
 * apart into the sub-metrics "malloc" and "free". The blocks are not touched (their addresses
 * escape to the optimiser), so pages are not faulted in: this is the cost of the allocator
 * and its system calls (brk/mmap/munmap for large sizes), not of first touching the memory.
 * Timed: the mallocs and frees (and three tick reads per 128 calls). Not timed: nothing else.
 * Cold (sub-metric "cold"): one malloc and free of size bytes, alone, after a cache flush. */
#include "heap_common.h"

#define NBLOCKS 64

static void *blk[NBLOCKS];

static void run(tm_ctx *ctx, uint64_t iters)
{
    size_t size = (size_t)tm_param(ctx, "size");
    if (tm_heap_rounds(ctx, blk, NBLOCKS, size, iters) != 0)
        tm_fail(ctx, "malloc(%lu) failed", (unsigned long)size);
}

static void cold(tm_ctx *ctx)
{
    void *p = tm_os_alloc((size_t)tm_param(ctx, "size"));
    tm_escape(p);
    if (!p)
        tm_fail(ctx, "malloc(%lu) failed", (unsigned long)tm_param(ctx, "size"));
    tm_os_free(p);
}

static int setup(tm_ctx *ctx)
{
    int64_t size = tm_param(ctx, "size");
    uint64_t avail = tm_os_mem_available();
    if (size < 1 || size > (int64_t)1 << 30)
        return tm_fail(ctx, "size must be 1 B .. 1 GiB");
    if (avail && (uint64_t)size * NBLOCKS > avail / 2)
        return tm_skip(ctx, "%d blocks of %lu KiB need more than half of the free memory (%lu KiB)", NBLOCKS,
                       (unsigned long)(size >> 10), (unsigned long)(avail >> 10));
    return TM_OK;
}

TM_BENCH(heap_malloc_free) = {
    .name = "heap.malloc_free",
    .summary = "malloc + free of a size-byte block, 64 allocations then 64 frees (subs: malloc, free)",
    .unit = "malloc+free",
    .ops_per_iter = NBLOCKS,
    .subs = "malloc,free",
    .params = {{"size", "16,256,4K,64K,1M", "block size in bytes (K/M suffixes)"}},
    .setup = setup,
    .run = run,
    .cold = cold,
};
