/* mem.bw_read: read bandwidth.
 *
 * One operation reads the whole buffer of `size` bytes once, a machine word at a time with
 * four independent sums (the compiler may vectorise the loop). bytes_per_op = size.
 * Timed: the reads only; the buffer is mapped and touched in setup. Headline: the maximum rate.
 * Pick `size` inside a cache level to read that level, beyond the last level for DRAM.
 */
#include "memutil.h"
#include "tickmark/osal.h"

static tm_membuf bw_read_buf;

static int setup_bw_read(tm_ctx *ctx)
{
    int64_t size = tm_param(ctx, "size");
    int rc;
    if (size < 256 || size % 64)
        return tm_fail(ctx, "size %ld is not a multiple of 64 of at least 256", (long)size);
    rc = tm_membuf_get(ctx, &bw_read_buf, (size_t)size, -1);
    if (rc != TM_OK)
        return rc;
    ctx->user = &bw_read_buf;
    ctx->bytes_per_op = (uint64_t)size;
    return TM_OK;
}

static void run_bw_read(tm_ctx *ctx, uint64_t iters)
{
    tm_membuf *b = ctx->user;
    size_t n = b->bytes / sizeof(size_t), i;
    size_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    while (iters--) {
        const size_t *w = (const size_t *)b->p;
        tm_escape(w);
        for (i = 0; i < n; i += 4) {
            s0 += w[i];
            s1 += w[i + 1];
            s2 += w[i + 2];
            s3 += w[i + 3];
        }
    }
    tm_sink = s0 + s1 + s2 + s3;
}

static void teardown_bw_read(tm_ctx *ctx)
{
    if (ctx->user)
        tm_membuf_put(ctx->user);
}

TM_BENCH(mem_bw_read) = {
    .name = "mem.bw_read",
    .summary = "read a buffer of size bytes once (word loads, summed)",
    .unit = "pass",
    .stat = TM_STAT_MAX_RATE,
    .params = {{"size", "16K,256K,4M,32M,128M", "buffer bytes: inside L1, L2, LLC, tinymembench's buffer, DRAM"}},
    .setup = setup_bw_read,
    .run = run_bw_read,
    .teardown = teardown_bw_read,
};
