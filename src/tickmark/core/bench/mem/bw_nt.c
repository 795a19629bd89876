/* mem.bw_nt: bandwidth of non-temporal (streaming) stores, which write around the caches.
 *
 * One operation fills a buffer of `size` bytes (`op` 0: the store alone, like mem.bw_write) or
 * copies `size` bytes from a second buffer into it (`op` 1: aligned 16-byte loads and streaming
 * stores, like mem.bw_copy), with the architecture's non-temporal store (x86-64 movntdq, arm64
 * stnp; see arch/ARCH/ntstore.c); other architectures report skip. bytes_per_op = size (copied
 * bytes counted once). Set beside mem.bw_write / mem.bw_copy at the same size: for a buffer
 * larger than the last cache streaming stores save the read-for-ownership of each line; for one
 * that fits a cache they lose it, because the data goes to memory anyway.
 * Timed: the stores (and loads) only; buffers are mapped and touched in setup. Headline: maximum
 * rate.
 */
#include <string.h>

#include "memutil.h"
#include "tickmark/osal.h"

static struct {
    tm_membuf src, dst;
    int op;
} bw_nt;

static int setup_bw_nt(tm_ctx *ctx)
{
    int64_t size = tm_param(ctx, "size"), op = tm_param(ctx, "op");
    size_t i;
    int rc;
    if (size < 256 || size % 64)
        return tm_fail(ctx, "size %ld is not a multiple of 64 of at least 256", (long)size);
    if (op != 0 && op != 1)
        return tm_fail(ctx, "op %ld is neither 0 (fill) nor 1 (copy)", (long)op);
    bw_nt.op = (int)op;
    bw_nt.src.map = NULL;
    rc = tm_membuf_get(ctx, &bw_nt.dst, (size_t)size, -1);
    if (rc != TM_OK)
        return rc;
    ctx->user = &bw_nt;
    if (tm_arch_nt_fill(bw_nt.dst.p, 64, 0) != 0)
        return tm_skip(ctx, "%s", tm_arch_nt_name());
    if (op == 1 && (rc = tm_membuf_get(ctx, &bw_nt.src, (size_t)size, -1)) != TM_OK)
        return rc;
    /* the stores do what they should: a fill of a known word, a copy of known bytes */
    tm_arch_nt_fill(bw_nt.dst.p, 256, 0x0123456789abcdefull);
    for (i = 0; i < 256 / 8; i++)
        if (((uint64_t *)bw_nt.dst.p)[i] != 0x0123456789abcdefull)
            return tm_fail(ctx, "%s fill wrote a wrong word at %lu", tm_arch_nt_name(), (unsigned long)i * 8);
    if (op == 1) {
        for (i = 0; i < 256; i++)
            bw_nt.src.p[i] = (char)(i * 7 + 1);
        tm_arch_nt_copy(bw_nt.dst.p, bw_nt.src.p, 256);
        if (memcmp(bw_nt.dst.p, bw_nt.src.p, 256) != 0)
            return tm_fail(ctx, "%s copy does not reproduce its source", tm_arch_nt_name());
    }
    ctx->bytes_per_op = (uint64_t)size;
    return TM_OK;
}

static void run_bw_nt(tm_ctx *ctx, uint64_t iters)
{
    char *d = bw_nt.dst.p;
    size_t n = bw_nt.dst.bytes;
    (void)ctx;
    while (iters--) {
        if (bw_nt.op)
            tm_arch_nt_copy(d, bw_nt.src.p, n);
        else
            tm_arch_nt_fill(d, n, iters);
        tm_escape(d);
    }
}

static void teardown_bw_nt(tm_ctx *ctx)
{
    if (ctx->user) {
        tm_membuf_put(&bw_nt.src);
        tm_membuf_put(&bw_nt.dst);
    }
    ctx->user = NULL;
}

TM_BENCH(mem_bw_nt) = {
    .name = "mem.bw_nt",
    .summary = "fill (op 0) or copy into (op 1) a buffer with non-temporal stores",
    .verifies = "the non-temporal fill and copy write what they should",
    .unit = "pass",
    .stat = TM_STAT_MAX_RATE,
    .params = {{"size", "16K,256K,4M,32M,128M", "buffer bytes: inside L1, L2, LLC, tinymembench's buffer, DRAM"},
               {"op", "0,1", "0: fill (stores only), 1: copy from a second buffer"}},
    .setup = setup_bw_nt,
    .run = run_bw_nt,
    .teardown = teardown_bw_nt,
};
