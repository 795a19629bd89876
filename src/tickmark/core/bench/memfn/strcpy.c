/* memfn.strcpy: one call of strcpy of a string of `size` characters (size + 1 bytes with the
 * terminator) by the implementation `impl` names. The implementation is checked first
 * (randomised lengths, alignments, guard bytes, return value); a wrong one fails with the first
 * failing case and is not timed. Timed: the calls only. Headline: median ns/call.
 */
#include "memfn_common.h"

static struct {
    tm_memfn_pair buf;
    char *s, *d;
    char *(*fn)(char *, const char *);
} sp;

static int setup_strcpy(tm_ctx *ctx)
{
    const tm_memfns *f;
    long size, sa, da;
    int rc;
    if (tm_memfn_pair_params(ctx, "salign", "dalign", &size, &sa, &da) != TM_OK)
        return TM_FAIL;
    if ((rc = tm_memfn_setup(ctx, "strcpy", &f)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_pair_get(ctx, &sp.buf, (size_t)(size + sa + 1), (size_t)(size + da + 1))) != TM_OK)
        return rc;
    ctx->user = &sp;
    sp.buf.a.p[sa + size] = 0;
    sp.s = sp.buf.a.p + sa;
    sp.d = sp.buf.b.p + da;
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
    if (ctx->user)
        tm_memfn_pair_put(&sp.buf);
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
