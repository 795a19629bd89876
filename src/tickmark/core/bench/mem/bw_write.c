/* mem.bw_write: write bandwidth.
 *
 * One operation writes the whole buffer of `size` bytes once with machine-word stores of a
 * value that changes per pass (a plain C loop; the compiler barrier every 64 bytes keeps it
 * from turning the loop into a memset call). bytes_per_op = size.
 * Timed: the stores only; the buffer is mapped and touched in setup. Headline: the maximum rate.
 */
#include "memutil.h"
#include "tickmark/osal.h"

static tm_membuf bw_write_buf;

static int setup_bw_write(tm_ctx *ctx)
{
    int64_t size = tm_param(ctx, "size");
    int rc;
    if (size < 256 || size % 64)
        return tm_fail(ctx, "size %ld is not a multiple of 64 of at least 256", (long)size);
    rc = tm_membuf_get(ctx, &bw_write_buf, (size_t)size, -1);
    if (rc != TM_OK)
        return rc;
    ctx->user = &bw_write_buf;
    ctx->bytes_per_op = (uint64_t)size;
    return TM_OK;
}

static void run_bw_write(tm_ctx *ctx, uint64_t iters)
{
    tm_membuf *b = ctx->user;
    size_t per = 64 / sizeof(size_t), n = b->bytes / sizeof(size_t), i, k;
    size_t v = (size_t)tm_opaque(iters);
    while (iters--) {
        size_t *w = (size_t *)b->p;
        v++;
        for (i = 0; i < n; i += per) {
            for (k = 0; k < per; k++)
                w[i + k] = v;
            tm_escape(w + i);
        }
    }
}

static void teardown_bw_write(tm_ctx *ctx)
{
    if (ctx->user)
        tm_membuf_put(ctx->user);
}

TM_BENCH(mem_bw_write) = {
    .name = "mem.bw_write",
    .summary = "write a buffer of size bytes once (word stores)",
    .unit = "pass",
    .stat = TM_STAT_MAX_RATE,
    .params = {{"size", "16K,256K,4M,32M,128M", "buffer bytes: inside L1, L2, LLC, tinymembench's buffer, DRAM"}},
    .setup = setup_bw_write,
    .run = run_bw_write,
    .teardown = teardown_bw_write,
};
