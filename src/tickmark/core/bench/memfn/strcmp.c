/* memfn.strcmp: one call of strcmp on two equal strings of `size` characters (the whole
 * length is compared), by the implementation `impl` names. The implementation is checked first
 * (randomised lengths, alignments, a difference or an early end at a random position, bytes
 * above 0x7f); a wrong one fails with the first failing case and is not timed.
 * Timed: the calls only. Headline: median ns/call.
 */
#include "memfn_common.h"

static struct {
    tm_memfn_pair buf;
    const char *a, *b;
    int (*fn)(const char *, const char *);
} sc;

static int setup_strcmp(tm_ctx *ctx)
{
    const tm_memfns *f;
    long size, aa, ba;
    int rc;
    size_t i;
    if (tm_memfn_pair_params(ctx, "aalign", "balign", &size, &aa, &ba) != TM_OK)
        return TM_FAIL;
    if ((rc = tm_memfn_setup(ctx, "strcmp", &f)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_pair_get(ctx, &sc.buf, (size_t)(size + aa + 1), (size_t)(size + ba + 1))) != TM_OK)
        return rc;
    ctx->user = &sc;
    for (i = 0; i < (size_t)size; i++)
        sc.buf.b.p[ba + i] = sc.buf.a.p[aa + i];
    sc.buf.a.p[aa + size] = sc.buf.b.p[ba + size] = 0;
    sc.a = sc.buf.a.p + aa;
    sc.b = sc.buf.b.p + ba;
    sc.fn = f->strcmp_fn;
    return TM_OK;
}

static void run_strcmp(tm_ctx *ctx, uint64_t iters)
{
    int acc = 0;
    (void)ctx;
    while (iters--) {
        acc += sc.fn(sc.a, sc.b);
        tm_escape(sc.a);
    }
    tm_sink = (uint64_t)acc;
}

static void teardown_strcmp(tm_ctx *ctx)
{
    if (ctx->user)
        tm_memfn_pair_put(&sc.buf);
}

TM_BENCH(memfn_strcmp) = {
    .name = "memfn.strcmp",
    .summary = "strcmp of two equal strings of size characters by implementation impl",
    .verifies = "strcmp of this implementation agrees with the reference over random sizes and alignments",
    .unit = "call",
    .params = {TM_MEMFN_IMPL_PARAM,
               {"size", TM_MEMFN_SIZES, "string length"},
               {"aalign", "0", "first string's offset from a page boundary"},
               {"balign", "0", "second string's offset from a page boundary"}},
    .setup = setup_strcmp,
    .run = run_strcmp,
    .teardown = teardown_strcmp,
};
