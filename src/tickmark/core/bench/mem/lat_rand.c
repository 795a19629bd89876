/* mem.lat_rand: load-to-use latency of a dependent random pointer chase.
 *
 * One operation is one load whose address is the value of the previous load (p = *p), over a
 * working set of `size` bytes cut into 32-byte slots linked in one random cycle (so consecutive
 * loads hit random lines in different pages, and prefetchers cannot guess the next address).
 * `thp` 1 puts the set in transparent huge pages (a set below 2 MiB inside one huge page, so it
 * is also physically contiguous), 0 advises against them. With huge pages the curve has only
 * cache knees up to the huge-page TLB's reach (e.g. 32 x 2 MiB); with 4 KiB pages it also
 * carries every TLB miss, so the difference is the page-walk cost. Whether the huge pages were
 * granted is checked and sent as info "huge_pct" (memutil.c).
 * Timed: the chase only. Not timed: mapping, touching and linking the set (setup). The chase
 * goes on across samples from where it stopped; the headline is the minimum (cache levels
 * appear as plateaus of the curve over `size`).
 */
#include "memutil.h"
#include "tickmark/osal.h"

#define SLOT 32

static int setup_lat_rand(tm_ctx *ctx)
{
    static tm_chase_state st;
    int64_t size = tm_param(ctx, "size"), thp = tm_param(ctx, "thp");
    int rc;
    if (size < 2 * SLOT)
        return tm_fail(ctx, "size %ld is below %d bytes", (long)size, 2 * SLOT);
    rc = tm_membuf_get(ctx, &st.buf, (size_t)size, thp != 0);
    if (rc != TM_OK)
        return rc;
    ctx->user = &st;
    st.cur = tm_chain_random(st.buf.p, (size_t)size, SLOT, tm_seed(ctx));
    if (!st.cur)
        return tm_skip(ctx, "cannot allocate the chain index");
    tm_info(ctx, "chain", tm_chain_id(st.cur, st.buf.p));
    return TM_OK;
}

TM_BENCH(mem_lat_rand) = {
    .name = "mem.lat_rand",
    .summary = "dependent load in a random pointer chase over a working set",
    .unit = "load",
    .ops_per_iter = 64,
    .stat = TM_STAT_MIN,
    .params = {{"size", TM_CHASE_SIZES, "working set in bytes"},
               {"thp", "0,1", "1: transparent huge pages (checked: info huge_pct), 0: advised off"}},
    .setup = setup_lat_rand,
    .run = tm_chase_run,
    .teardown = tm_chase_teardown,
};
