/* memfn.strcmp: one call of strcmp on two equal strings of `size` characters (the whole
 * length is compared), by the implementation `impl` names. The implementation is checked first
 * (randomised lengths, alignments, a difference or an early end at a random position, bytes
 * above 0x7f); a wrong one fails with the first failing case and is not timed.
 * Timed: the calls only. Headline: median ns/call.
 */
#include "memfn_common.h"

static struct {
    tm_memfn_area abuf, bbuf;
    const char *a, *b;
    int (*fn)(const char *, const char *);
} sc;

static int setup_strcmp(tm_ctx *ctx)
{
    const tm_memfns *f;
    long size = tm_memfn_param(ctx, "size", 0, 1L << 30), aa = tm_memfn_param(ctx, "aalign", 0, 4095),
         ba = tm_memfn_param(ctx, "balign", 0, 4095);
    int rc;
    size_t i;
    if (size < 0 || aa < 0 || ba < 0)
        return TM_FAIL;
    if ((rc = tm_memfn_setup(ctx, "strcmp", &f)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_area_get(ctx, &sc.abuf, (size_t)(size + aa + 1))) != TM_OK)
        return rc;
    if ((rc = tm_memfn_area_get(ctx, &sc.bbuf, (size_t)(size + ba + 1))) != TM_OK) {
        tm_memfn_area_put(&sc.abuf);
        return rc;
    }
    ctx->user = &sc;
    for (i = 0; i < (size_t)size; i++)
        sc.bbuf.p[ba + i] = sc.abuf.p[aa + i];
    sc.abuf.p[aa + size] = sc.bbuf.p[ba + size] = 0;
    sc.a = sc.abuf.p + aa;
    sc.b = sc.bbuf.p + ba;
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
    if (ctx->user) {
        tm_memfn_area_put(&sc.abuf);
        tm_memfn_area_put(&sc.bbuf);
    }
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
