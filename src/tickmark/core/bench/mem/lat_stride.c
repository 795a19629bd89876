/* mem.lat_stride: dependent loads in pairs, `stride` bytes apart, for the cache line size.
 *
 * The working set (`span`) is cut into blocks of 1 KiB (or 2 x stride when larger) linked in
 * one random cycle. In each block the chase loads offset 0, then offset `stride` (whose address
 * it got from the first load), then jumps to the next block. One operation is one load. While
 * stride is below the line size the second load hits the line the first one brought in, so the
 * mean load costs (miss + hit) / 2; from the line size on it is a second miss, so the curve over
 * `stride` steps up at the line size.
 * The default span, 256 KiB, is meant to miss L1 and hit L2 (8x a 32 KiB L1; `tickmark
 * topology` sets it from the L1 it finds). A span in DRAM does not work on cores whose
 * prefetchers fetch a whole region around a miss: by the time the dependent second load
 * issues, ~100 ns later, its line has arrived (measured on an AMD EPYC: flat up to 256 bytes).
 * A plain sequential chase at a stride is not used either: stream prefetchers hide its misses.
 * Timed: the chase only; mapping and linking are setup. Headline: the minimum.
 */
#include "memutil.h"
#include "tickmark/osal.h"

static int setup_lat_stride(tm_ctx *ctx)
{
    static tm_chase_state st;
    int64_t size = tm_param(ctx, "span"), stride = tm_param(ctx, "stride");
    size_t block, i;
    int rc;
    if (stride < (int64_t)sizeof(void *) || stride % (int64_t)sizeof(void *))
        return tm_fail(ctx, "stride %ld is not a multiple of the pointer size", (long)stride);
    block = stride * 2 > 1024 ? (size_t)stride * 2 : 1024;
    if (size < (int64_t)(4 * block))
        return tm_fail(ctx, "span %ld is below 4 blocks of %lu bytes", (long)size,
                       (unsigned long)block);
    rc = tm_membuf_get(ctx, &st.buf, (size_t)size, 0);
    if (rc != TM_OK)
        return rc;
    ctx->user = &st;
    st.cur = tm_chain_random(st.buf.p, (size_t)size, block, tm_seed(ctx));
    if (!st.cur)
        return tm_skip(ctx, "cannot allocate the chain index");
    /* block+0 -> block+stride -> next block+0 */
    for (i = 0; i + block <= (size_t)size; i += block) {
        char *b = st.buf.p + i;
        *(void **)(b + stride) = *(void **)b;
        *(void **)b = b + stride;
    }
    return TM_OK;
}

TM_BENCH(mem_lat_stride) = {
    .name = "mem.lat_stride",
    .summary = "dependent load pair in a random block, stride bytes apart (line size)",
    .unit = "load",
    .ops_per_iter = 64,
    .stat = TM_STAT_MIN,
    .params = {{"span", "256K", "working set in bytes: beyond L1, inside L2"},
               {"stride", "8,16,32,64,128,256,512", "distance of the second load in a block"}},
    .setup = setup_lat_stride,
    .run = tm_chase_run,
    .teardown = tm_chase_teardown,
};
