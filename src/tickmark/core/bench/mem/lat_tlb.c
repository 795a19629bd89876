/* mem.lat_tlb: load-to-use latency of a chase that loads once per page, for the TLB levels.
 *
 * The chase visits `pages` lines in one random cycle (Sattolo); one operation is one load.
 * With packed=0 line k lies alone in page k, at line offset (k mod lines-per-page) x 64, so
 * every load needs a translation of its own. The lines are spread evenly over the cache sets
 * (the offset in the page is the set index of a virtually indexed L1): they stay in L1 up to
 * L1-size / 64 lines and in L2 after.
 * packed=1 is the cache-only reference: the same line offsets, the same number of lines, but
 * lines-per-page (64) lines to a page, so 64 times fewer translations. The difference of the
 * two curves is what the translations cost: about zero while `pages` fits in the first-level
 * DTLB, a step to the second-level TLB's hit cost past its entries, another step to a page
 * walk past the second level's. The reference itself stays inside the first-level DTLB up to
 * 64 x its entries lines (e.g. 6144), and pays at most second-level hits above that.
 * The pages are small pages (the OS page size); thp=1 puts the set in huge pages instead, which
 * shows whether the TLB really holds huge translations: under a hypervisor that backs the guest
 * with small pages the one-line-per-page curve keeps its steps.
 * Timed: the chase only; mapping, touching and linking are setup. Headline: the minimum.
 */
#include "memutil.h"
#include "tickmark/osal.h"

static int setup_lat_tlb(tm_ctx *ctx)
{
    static tm_chase_state st;
    int64_t pages = tm_param(ctx, "pages"), packed = tm_param(ctx, "packed"), thp = tm_param(ctx, "thp");
    size_t page = tm_os_page_size(), per = page / 64, bytes, k, n;
    uint32_t *ix;
    uint64_t seed = tm_seed(ctx);
    int rc;
    if (pages < 2 || pages > (1 << 24))
        return tm_fail(ctx, "pages %ld is not between 2 and 16M", (long)pages);
    if (per < 2)
        return tm_skip(ctx, "page size %lu is too small for one line per page", (unsigned long)page);
    n = (size_t)pages;
    bytes = packed ? (n + per - 1) / per * page : n * page;
    rc = tm_membuf_get(ctx, &st.buf, bytes, thp != 0);
    if (rc != TM_OK)
        return rc;
    ctx->user = &st;
    ix = tm_os_alloc(n * sizeof *ix);
    if (!ix)
        return tm_skip(ctx, "cannot allocate the chain index");
    for (k = 0; k < n; k++)
        ix[k] = (uint32_t)k;
    for (k = n - 1; k > 0; k--) { /* Sattolo: one cycle through all n lines */
        size_t j = tm_rand_below(&seed, k);
        uint32_t t = ix[k];
        ix[k] = ix[j];
        ix[j] = t;
    }
#define TLB_LINE(i) (st.buf.p + ((packed ? (i) / per : (i)) * page) + ((i) % per) * 64)
    for (k = 0; k < n; k++)
        *(char **)TLB_LINE(ix[k]) = TLB_LINE(ix[(k + 1) % n]);
    st.cur = (void **)TLB_LINE(ix[0]);
#undef TLB_LINE
    tm_os_free(ix);
    return TM_OK;
}

TM_BENCH(mem_lat_tlb) = {
    .name = "mem.lat_tlb",
    .summary = "dependent load, one per page in a random page order, lines kept in cache (TLB levels)",
    .unit = "load",
    .ops_per_iter = 64,
    .stat = TM_STAT_MIN,
    .params = {{"pages", "8,16,24,32,40,48,56,64,72,80,88,96,104,112,128,144,160,192,256,384,512,"
                         "768,1K,1280,1536,1792,2K,2304,2560,3K,4K,6K,8K,12K,16K",
                "lines in the chase (with packed=0 one per page, so also the pages)"},
               {"packed", "0,1", "0: one line per page; 1: 64 lines to a page (the cache-only reference)"},
               {"thp", "0", "1: huge pages (does the TLB hold huge translations?), 0: advised off"}},
    .setup = setup_lat_tlb,
    .run = tm_chase_run,
    .teardown = tm_chase_teardown,
};
