/* mem.lat_pagelocal: load-to-use latency of a random chase that stays in a few pages until it
 * has visited every slot of them, for cache knees that TLB misses do not blur.
 *
 * The working set of `size` bytes is cut into 32-byte slots (as in mem.lat_rand). The chase
 * takes the pages in one random order, `group` pages at a time, and visits every slot of those
 * pages in a random order of their own before it moves to the next group; the last slot leads
 * back to the first. One operation is one dependent load (p = *p). Every slot of the set is
 * loaded once per cycle, as in mem.lat_rand, so the set fits a cache exactly when
 * mem.lat_rand's does; but a page needs its translation only while its group is visited: one
 * TLB miss per page/32 loads (128 with 4 KiB pages), against nearly one per load in
 * mem.lat_rand past the TLB's reach. Where huge pages do not reach the TLB (a guest that its
 * hypervisor backs with small pages) this curve still shows only the caches.
 * Why groups (default 16 pages, well inside any first-level DTLB but the smallest micro-TLBs):
 * with one page at a time, a prefetcher that fetches the lines around a miss in the same page
 * (AMD Zen's region prefetchers) serves most loads early, and the L2 and L3 plateaus sink
 * towards L1 (measured on an EPYC guest: 2.5 ns at 256K against 3.8 ns for mem.lat_rand);
 * spread over 16 pages the loads mostly wait for their line again. Such a prefetcher still
 * lowers the memory plateau (more loads per open DRAM row), never the cache knees.
 * `thp` 1 puts the set in transparent huge pages (checked: info huge_pct), 0 advises them off.
 * The chain is linked from the instance's seed (tm_seed: one --seed gives one layout; its
 * fingerprint is sent as info "chain"), and setup checks that it is one cycle through every
 * slot (each slot is linked at most once, so counting them is enough).
 * Timed: the chase only. Not timed: mapping, touching, linking and checking the set (setup).
 * The chase goes on across samples from where it stopped; the headline is the minimum.
 */
#include "memutil.h"
#include "tickmark/osal.h"

#define SLOT 32

/* Shuffle ix[0..n) into a uniformly random permutation (Fisher-Yates). */
static void shuffle(uint32_t *ix, size_t n, uint64_t *seed)
{
    size_t i;
    for (i = 0; i < n; i++)
        ix[i] = (uint32_t)i;
    for (i = n; i > 1; i--) {
        size_t j = tm_rand_below(seed, i);
        uint32_t t = ix[i - 1];
        ix[i - 1] = ix[j];
        ix[j] = t;
    }
}

/* Link the slots of [p, p+bytes): the pages in the order `pages`, taken `group` at a time, the
 * slots of each group in a random order of their own; returns the first slot, and in *linked
 * how many slots the chain holds. slots has room for group x page / SLOT entries. Every slot
 * is linked at most once (`pages` and each group's order are permutations), so the chain is
 * one cycle; it goes through every slot of the set when *linked is bytes / SLOT. */
static void **link_pagelocal(char *p, size_t bytes, size_t page, const uint32_t *pages, size_t npages,
                             size_t group, uint32_t *slots, uint64_t *seed, size_t *linked)
{
    size_t per = page / SLOT, g, i;
    char *first = NULL, *prev = NULL;
    *linked = 0;
    for (g = 0; g < npages; g += group) {
        size_t m = npages - g < group ? npages - g : group;
        shuffle(slots, m * per, seed);
        for (i = 0; i < m * per; i++) {
            size_t off = (size_t)pages[g + slots[i] / per] * page + (size_t)(slots[i] % per) * SLOT;
            char *s = p + off;
            if (off + SLOT > bytes)
                continue; /* past the end of a set that ends inside a page */
            if (prev)
                *(char **)prev = s;
            else
                first = s;
            prev = s;
            ++*linked;
        }
    }
    *(char **)prev = first;
    return (void **)first;
}

static int setup_lat_pagelocal(tm_ctx *ctx)
{
    static tm_chase_state st;
    int64_t size = tm_param(ctx, "size"), thp = tm_param(ctx, "thp"), group = tm_param(ctx, "group");
    size_t page = tm_os_page_size(), npages;
    uint32_t *pages, *slots;
    uint64_t seed = tm_seed(ctx);
    size_t linked;
    int rc;
    if (size < 2 * SLOT || size % SLOT)
        return tm_fail(ctx, "size %ld is not a multiple of %d of at least %d bytes", (long)size, SLOT, 2 * SLOT);
    if (group < 1 || group > 4096)
        return tm_fail(ctx, "group %ld is not between 1 and 4096 pages", (long)group);
    if (page < 2 * SLOT)
        return tm_skip(ctx, "page size %lu is below two slots", (unsigned long)page);
    rc = tm_membuf_get(ctx, &st.buf, (size_t)size, thp != 0);
    if (rc != TM_OK)
        return rc;
    ctx->user = &st;
    npages = ((size_t)size + page - 1) / page;
    pages = tm_os_alloc(npages * sizeof *pages);
    slots = tm_os_alloc((size_t)group * (page / SLOT) * sizeof *slots);
    if (!pages || !slots) {
        if (pages)
            tm_os_free(pages);
        if (slots)
            tm_os_free(slots);
        return tm_skip(ctx, "cannot allocate the chain index");
    }
    shuffle(pages, npages, &seed);
    st.cur = link_pagelocal(st.buf.p, (size_t)size, page, pages, npages, (size_t)group, slots, &seed, &linked);
    tm_os_free(pages);
    tm_os_free(slots);
    if (linked != (size_t)size / SLOT)
        return tm_fail(ctx, "the chain links %lu of %lu slots", (unsigned long)linked, (unsigned long)size / SLOT);
    tm_info(ctx, "chain", tm_chain_id(st.cur, st.buf.p));
    return TM_OK;
}

TM_BENCH(mem_lat_pagelocal) = {
    .name = "mem.lat_pagelocal",
    .summary = "dependent load in a random chase through every slot of a group of pages, then the next group",
    .unit = "load",
    .ops_per_iter = 64,
    .stat = TM_STAT_MIN,
    .params = {{"size", TM_CHASE_SIZES, "working set in bytes"},
               {"group", "16", "pages whose slots are visited together, in one random order"},
               {"thp", "0", "1: transparent huge pages (checked: info huge_pct), 0: advised off"}},
    .setup = setup_lat_pagelocal,
    .run = tm_chase_run,
    .teardown = tm_chase_teardown,
};
