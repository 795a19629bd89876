/* mem.bw_memmove: bandwidth of the memmove in effect, moving a buffer down by `shift` bytes.
 *
 * One operation moves `size` bytes `shift` bytes down inside one mapping of size + shift bytes.
 * The default shift, 256, makes source and destination overlap by size - 256 bytes: the case
 * memmove exists for (shifting the entries of a sorted array). bytes_per_op = size (moved bytes
 * counted once, as mem.bw_copy counts copied ones).
 * Why an overlapping move outruns a copy between two buffers once the buffer leaves the caches:
 * each store lands in a line the move loaded 256 bytes earlier, so a line crosses the memory bus
 * twice (read, write back) where a copy's destination line crosses it three times (read for
 * ownership, write back, plus the source read): about 1.5x the rate at the same memory
 * bandwidth. shift >= size moves between two halves that do not overlap, which is a copy again.
 * Timed: the memmove only; the buffer is mapped and touched in setup. Headline: maximum rate.
 */
#include "memutil.h"
#include "tickmark/memfn.h"
#include "tickmark/osal.h"

static struct {
    tm_membuf buf;
    size_t shift;
    void *(*fn)(void *, const void *, size_t);
} bw_move;

static int setup_bw_memmove(tm_ctx *ctx)
{
    int64_t size = tm_param(ctx, "size"), shift = tm_param(ctx, "shift");
    int rc;
    if (shift < 1 || shift > size)
        return tm_fail(ctx, "shift %ld is not between 1 and the size", (long)shift);
    if (size < 512)
        return tm_fail(ctx, "size %ld is below 512 bytes", (long)size);
    bw_move.shift = (size_t)shift;
    rc = tm_membuf_get(ctx, &bw_move.buf, (size_t)size + (size_t)shift, -1);
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
    size_t n = bw_move.buf.bytes - bw_move.shift;
    (void)ctx;
    while (iters--) {
        bw_move.fn(p, p + bw_move.shift, n);
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
    .summary = "memmove of size bytes shift bytes down (256: overlapping, in place)",
    .unit = "pass",
    .stat = TM_STAT_MAX_RATE,
    .params = {{"size", "16K,256K,4M,32M,128M", "bytes moved: inside L1, L2, LLC, tinymembench's buffer, DRAM"},
               {"shift", "256", "bytes down; 256 overlaps (in place), >= size does not (a copy)"}},
    .setup = setup_bw_memmove,
    .run = run_bw_memmove,
    .teardown = teardown_bw_memmove,
};
