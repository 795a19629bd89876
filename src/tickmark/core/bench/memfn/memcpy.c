/* memfn.memcpy: one call of memcpy(dst + dalign, src + salign, size) by the implementation
 * `impl` names (libc, bytewise reference, word-at-a-time C, the user's --memfn file).
 * The implementation is checked against the reference semantics first (randomised sizes,
 * alignments, guard bytes, return value); a wrong one fails with the first failing case and
 * is not timed. Timed: the calls only (through the routine table, the same indirect call for
 * every implementation); buffers are mapped and filled in setup. Headline: median ns/call.
 */
#include "memfn_common.h"

static struct {
    tm_memfn_pair buf;
    char *s, *d;
    size_t n;
    void *(*fn)(void *, const void *, size_t);
} mc;

static int setup_memcpy(tm_ctx *ctx)
{
    const tm_memfns *f;
    long size, sa, da;
    int rc;
    if (tm_memfn_pair_params(ctx, "salign", "dalign", &size, &sa, &da) != TM_OK)
        return TM_FAIL;
    if ((rc = tm_memfn_setup(ctx, "memcpy", &f)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_pair_get(ctx, &mc.buf, (size_t)(size + sa), (size_t)(size + da))) != TM_OK)
        return rc;
    ctx->user = &mc;
    mc.s = mc.buf.a.p + sa;
    mc.d = mc.buf.b.p + da;
    mc.n = (size_t)size;
    mc.fn = f->memcpy_fn;
    return TM_OK;
}

static void run_memcpy(tm_ctx *ctx, uint64_t iters)
{
    (void)ctx;
    while (iters--) {
        mc.fn(mc.d, mc.s, mc.n);
        tm_escape(mc.d);
    }
}

static void teardown_memcpy(tm_ctx *ctx)
{
    if (ctx->user)
        tm_memfn_pair_put(&mc.buf);
}

TM_BENCH(memfn_memcpy) = {
    .name = "memfn.memcpy",
    .summary = "memcpy of size bytes by implementation impl",
    .verifies = "memcpy of this implementation agrees with the reference over random sizes and alignments",
    .unit = "call",
    .params = {TM_MEMFN_IMPL_PARAM,
               {"size", TM_MEMFN_SIZES, "bytes copied"},
               {"salign", "0,3", "source offset from a page boundary"},
               {"dalign", "0", "destination offset from a page boundary"}},
    .setup = setup_memcpy,
    .run = run_memcpy,
    .teardown = teardown_memcpy,
};
