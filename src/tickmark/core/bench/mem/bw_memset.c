/* mem.bw_memset: fill bandwidth of the memset in effect.
 *
 * One operation sets `size` bytes of one buffer to a byte value. bytes_per_op = size.
 * Timed: the memset only; the buffer is mapped and touched in setup. Headline: maximum rate.
 */
#include "memutil.h"
#include "tickmark/memfn.h"
#include "tickmark/osal.h"

static struct {
    tm_membuf buf;
    void *(*fn)(void *, int, size_t);
} bw_set;

static int setup_bw_memset(tm_ctx *ctx)
{
    int64_t size = tm_param(ctx, "size");
    int rc;
    if (size < 64)
        return tm_fail(ctx, "size %ld is below 64 bytes", (long)size);
    rc = tm_membuf_get(ctx, &bw_set.buf, (size_t)size, -1);
    if (rc != TM_OK)
        return rc;
    ctx->user = &bw_set;
    ctx->bytes_per_op = (uint64_t)size;
    bw_set.fn = tm_memfns_active()->memset_fn;
    return TM_OK;
}

static void run_bw_memset(tm_ctx *ctx, uint64_t iters)
{
    char *p = bw_set.buf.p;
    size_t n = bw_set.buf.bytes;
    (void)ctx;
    while (iters--) {
        bw_set.fn(p, (int)(iters & 0x7f), n);
        tm_escape(p);
    }
}

static void teardown_bw_memset(tm_ctx *ctx)
{
    if (ctx->user)
        tm_membuf_put(&bw_set.buf);
}

TM_BENCH(mem_bw_memset) = {
    .name = "mem.bw_memset",
    .summary = "memset of size bytes",
    .unit = "pass",
    .stat = TM_STAT_MAX_RATE,
    .params = {{"size", "16K,256K,4M,32M,128M", "bytes set: inside L1, L2, LLC, tinymembench's buffer, DRAM"}},
    .setup = setup_bw_memset,
    .run = run_bw_memset,
    .teardown = teardown_bw_memset,
};
