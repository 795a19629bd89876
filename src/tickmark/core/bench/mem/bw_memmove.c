/* mem.bw_memmove: bandwidth of the memmove in effect on overlapping buffers.
 *
 * One operation moves `size` bytes 256 bytes down inside one buffer (source and destination
 * overlap by size - 256 bytes; the case memmove exists for, e.g. shifting the entries of a
 * sorted array). bytes_per_op = size (moved bytes counted once).
 * Timed: the memmove only; the buffer is mapped and touched in setup. Headline: maximum rate.
 */
#include "memutil.h"
#include "tickmark/memfn.h"
#include "tickmark/osal.h"

#define SHIFT 256

static struct {
    tm_membuf buf;
    void *(*fn)(void *, const void *, size_t);
} bw_move;

static int setup_bw_memmove(tm_ctx *ctx)
{
    int64_t size = tm_param(ctx, "size");
    int rc;
    if (size < 2 * SHIFT)
        return tm_fail(ctx, "size %ld is below %d bytes", (long)size, 2 * SHIFT);
    rc = tm_membuf_get(ctx, &bw_move.buf, (size_t)size + SHIFT, -1);
    if (rc != TM_OK)
        return rc;
    ctx->user = &bw_move;
    ctx->bytes_per_op = (uint64_t)size;
    bw_move.fn = tm_memfns_active()->memmove_fn;
    return TM_OK;
}

static void run_bw_memmove(tm_ctx *ctx, uint64_t iters)
{
    char *p = bw_move.buf.p;
    size_t n = bw_move.buf.bytes - SHIFT;
    (void)ctx;
    while (iters--) {
        bw_move.fn(p, p + SHIFT, n);
        tm_escape(p);
    }
}

static void teardown_bw_memmove(tm_ctx *ctx)
{
    if (ctx->user)
        tm_membuf_put(&bw_move.buf);
}

TM_BENCH(mem_bw_memmove) = {
    .name = "mem.bw_memmove",
    .summary = "memmove of size bytes 256 bytes down (overlapping)",
    .unit = "pass",
    .stat = TM_STAT_MAX_RATE,
    .params = {{"size", "16K,256K,4M,128M", "bytes moved: inside L1, L2, LLC, and DRAM"}},
    .setup = setup_bw_memmove,
    .run = run_bw_memmove,
    .teardown = teardown_bw_memmove,
};
