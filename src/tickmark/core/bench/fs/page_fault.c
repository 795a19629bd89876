/* fs.page_fault — one operation is the first write to one page of a fresh anonymous mapping
 * (a minor page fault: the kernel allocates and zeroes a page and maps it). Each iteration
 * maps 1 MiB (not pre-populated, huge pages refused), writes one byte per page, and unmaps it.
 * Sub-metric "fault" is the time of the touching loop alone (ns per page); the headline also
 * carries mmap and munmap (freeing the pages) spread over the pages, reported as sub-metric
 * "map_unmap". Timed: mmap, the touching loop, munmap. Not timed: nothing else. */
#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

#define REGION (1u << 20)

static size_t page;

static int setup(tm_ctx *ctx)
{
    page = tm_os_page_size();
    if (!page || REGION % page)
        return tm_skip(ctx, "unusual page size %lu", (unsigned long)page);
    ctx->ops_per_iter = REGION / page;
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t tf = 0, tm = 0, i;
    size_t k;
    for (i = 0; i < iters; i++) {
        uint64_t t0 = tm_ticks(), t1, t2, t3;
        volatile char *p = tm_os_map_lazy(REGION);
        if (!p) {
            tm_fail(ctx, "mmap failed");
            return;
        }
        t1 = tm_ticks();
        for (k = 0; k < REGION; k += page)
            p[k] = 1;
        t2 = tm_ticks();
        tm_os_unmap((void *)p, REGION);
        t3 = tm_ticks();
        tf += t2 - t1;
        tm += (t1 - t0) + (t3 - t2);
    }
    tm_sub_add(ctx, 0, tm_ticks_to_ns(tf));
    tm_sub_add(ctx, 1, tm_ticks_to_ns(tm));
}

TM_BENCH(fs_page_fault) = {
    .name = "fs.page_fault",
    .summary = "first touch of a fresh anonymous page (minor fault), mmap/munmap amortised (subs: fault, map_unmap)",
    .unit = "page",
    .requires = TM_REQ_MMAP,
    .subs = "fault,map_unmap",
    .setup = setup,
    .run = run,
};
