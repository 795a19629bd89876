/* mem.bw_copy: copy bandwidth of the memcpy in effect (libc's, or the one a --memfn build
 * supplies; see include/tickmark/memfn.h).
 *
 * One operation copies `size` bytes from one buffer to another (two separate page-aligned
 * mappings). bytes_per_op = size: copied bytes are counted once (the tinymembench and
 * `perf bench mem memcpy` convention; the memory traffic is twice that).
 * Timed: the copy only; both buffers are mapped and touched in setup. Headline: maximum rate.
 */
#include "memutil.h"
#include "tickmark/memfn.h"
#include "tickmark/osal.h"

static struct {
    tm_membuf src, dst;
    void *(*fn)(void *, const void *, size_t);
} bw_copy;

static int setup_bw_copy(tm_ctx *ctx)
{
    int64_t size = tm_param(ctx, "size");
    int rc;
    if (size < 64)
        return tm_fail(ctx, "size %ld is below 64 bytes", (long)size);
    rc = tm_membuf_get(ctx, &bw_copy.src, (size_t)size, -1);
    if (rc != TM_OK)
        return rc;
    rc = tm_membuf_get(ctx, &bw_copy.dst, (size_t)size, -1);
    if (rc != TM_OK) {
        tm_membuf_put(&bw_copy.src);
        return rc;
    }
    ctx->user = &bw_copy;
    ctx->bytes_per_op = (uint64_t)size;
    bw_copy.fn = tm_memfns_active()->memcpy_fn;
    return TM_OK;
}

static void run_bw_copy(tm_ctx *ctx, uint64_t iters)
{
    char *d = bw_copy.dst.p, *s = bw_copy.src.p;
    size_t n = bw_copy.dst.bytes;
    (void)ctx;
    while (iters--) {
        bw_copy.fn(d, s, n);
        tm_escape(d);
    }
}

static void teardown_bw_copy(tm_ctx *ctx)
{
    if (ctx->user) {
        tm_membuf_put(&bw_copy.src);
        tm_membuf_put(&bw_copy.dst);
    }
}

TM_BENCH(mem_bw_copy) = {
    .name = "mem.bw_copy",
    .summary = "memcpy of size bytes between two buffers (bytes counted once)",
    .unit = "pass",
    .stat = TM_STAT_MAX_RATE,
    .params = {{"size", "16K,256K,4M,32M,128M", "bytes copied: inside L1, L2, LLC, tinymembench's buffer, DRAM"}},
    .setup = setup_bw_copy,
    .run = run_bw_copy,
    .teardown = teardown_bw_copy,
};
