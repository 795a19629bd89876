/* memfn.strcpy: one call of strcpy of a string of `size` characters (size + 1 bytes with the
 * terminator) by the implementation `impl` names. The implementation is checked first
 * (randomised lengths, alignments, guard bytes, return value); a wrong one fails with the first
 * failing case and is not timed. Timed: the calls only. Headline: median ns/call.
 */
#include "memfn_common.h"

static struct {
    tm_memfn_area src, dst;
    char *s, *d;
    char *(*fn)(char *, const char *);
} sp;

static int setup_strcpy(tm_ctx *ctx)
{
    const tm_memfns *f;
    long size = tm_memfn_param(ctx, "size", 0, 1L << 30), sa = tm_memfn_param(ctx, "salign", 0, 4095),
         da = tm_memfn_param(ctx, "dalign", 0, 4095);
    int rc;
    if (size < 0 || sa < 0 || da < 0)
        return TM_FAIL;
    if ((rc = tm_memfn_setup(ctx, "strcpy", &f)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_area_get(ctx, &sp.src, (size_t)(size + sa + 1))) != TM_OK)
        return rc;
    if ((rc = tm_memfn_area_get(ctx, &sp.dst, (size_t)(size + da + 1))) != TM_OK) {
        tm_memfn_area_put(&sp.src);
        return rc;
    }
    ctx->user = &sp;
    sp.src.p[sa + size] = 0;
    sp.s = sp.src.p + sa;
    sp.d = sp.dst.p + da;
    sp.fn = f->strcpy_fn;
    return TM_OK;
}

static void run_strcpy(tm_ctx *ctx, uint64_t iters)
{
    (void)ctx;
    while (iters--) {
        sp.fn(sp.d, sp.s);
        tm_escape(sp.d);
    }
}

static void teardown_strcpy(tm_ctx *ctx)
{
    if (ctx->user) {
        tm_memfn_area_put(&sp.src);
        tm_memfn_area_put(&sp.dst);
    }
}

TM_BENCH(memfn_strcpy) = {
    .name = "memfn.strcpy",
    .summary = "strcpy of a string of size characters by implementation impl",
    .verifies = "strcpy of this implementation agrees with the reference over random sizes and alignments",
    .unit = "call",
    .params = {TM_MEMFN_IMPL_PARAM,
               {"size", TM_MEMFN_SIZES, "string length"},
               {"salign", "0", "source offset from a page boundary"},
               {"dalign", "0", "destination offset from a page boundary"}},
    .setup = setup_strcpy,
    .run = run_strcpy,
    .teardown = teardown_strcpy,
};
