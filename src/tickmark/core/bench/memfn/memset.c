/* memfn.memset: one call of memset(dst + align, c, size) by the implementation `impl` names.
 * The implementation is checked first (randomised sizes, alignments, values above 0xff, guard
 * bytes, return value); a wrong one fails with the first failing case and is not timed.
 * Timed: the calls only. Headline: median ns/call.
 */
#include "memfn_common.h"

static struct {
    tm_memfn_area buf;
    char *d;
    size_t n;
    void *(*fn)(void *, int, size_t);
} ms;

static int setup_memset(tm_ctx *ctx)
{
    const tm_memfns *f;
    long size = tm_memfn_param(ctx, "size", 0, 1L << 30), al = tm_memfn_param(ctx, "align", 0, 4095);
    int rc;
    if (size < 0 || al < 0)
        return TM_FAIL;
    if ((rc = tm_memfn_setup(ctx, "memset", &f)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_area_get(ctx, &ms.buf, (size_t)(size + al))) != TM_OK)
        return rc;
    ctx->user = &ms;
    ms.d = ms.buf.p + al;
    ms.n = (size_t)size;
    ms.fn = f->memset_fn;
    return TM_OK;
}

static void run_memset(tm_ctx *ctx, uint64_t iters)
{
    (void)ctx;
    while (iters--) {
        ms.fn(ms.d, (int)(iters & 0x7f), ms.n);
        tm_escape(ms.d);
    }
}

static void teardown_memset(tm_ctx *ctx)
{
    if (ctx->user)
        tm_memfn_area_put(&ms.buf);
}

TM_BENCH(memfn_memset) = {
    .name = "memfn.memset",
    .summary = "memset of size bytes by implementation impl",
    .verifies = "memset of this implementation agrees with the reference over random sizes and alignments",
    .unit = "call",
    .params = {TM_MEMFN_IMPL_PARAM,
               {"size", TM_MEMFN_SIZES, "bytes set"},
               {"align", "0", "destination offset from a page boundary"}},
    .setup = setup_memset,
    .run = run_memset,
    .teardown = teardown_memset,
};
