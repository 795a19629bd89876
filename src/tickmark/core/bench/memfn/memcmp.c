/* memfn.memcmp: one call of memcmp(a + aalign, b + balign, size) on equal areas (the whole
 * length is compared) by the implementation `impl` names. The implementation is checked first
 * (randomised sizes, alignments, a difference at a random byte, bytes above 0x7f); a wrong one
 * fails with the first failing case and is not timed. Timed: the calls only. Headline: median.
 */
#include "memfn_common.h"

static struct {
    tm_memfn_pair buf;
    const char *a, *b;
    size_t n;
    int (*fn)(const void *, const void *, size_t);
} mp;

static int setup_memcmp(tm_ctx *ctx)
{
    const tm_memfns *f;
    long size, aa, ba;
    int rc;
    if (tm_memfn_pair_params(ctx, "aalign", "balign", &size, &aa, &ba) != TM_OK)
        return TM_FAIL;
    if ((rc = tm_memfn_setup(ctx, "memcmp", &f)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_pair_get(ctx, &mp.buf, (size_t)(size + aa + ba), (size_t)(size + aa + ba))) != TM_OK)
        return rc;
    ctx->user = &mp;
    mp.a = mp.buf.a.p + aa;
    mp.b = mp.buf.b.p + ba;
    {
        size_t i;
        for (i = 0; i < (size_t)size; i++)
            mp.buf.b.p[ba + i] = mp.buf.a.p[aa + i];
    }
    mp.n = (size_t)size;
    mp.fn = f->memcmp_fn;
    return TM_OK;
}

static void run_memcmp(tm_ctx *ctx, uint64_t iters)
{
    int acc = 0;
    (void)ctx;
    while (iters--) {
        acc += mp.fn(mp.a, mp.b, mp.n);
        tm_escape(mp.a);
    }
    tm_sink = (uint64_t)acc;
}

static void teardown_memcmp(tm_ctx *ctx)
{
    if (ctx->user)
        tm_memfn_pair_put(&mp.buf);
}

TM_BENCH(memfn_memcmp) = {
    .name = "memfn.memcmp",
    .summary = "memcmp of two equal areas of size bytes by implementation impl",
    .verifies = "memcmp of this implementation agrees with the reference over random sizes and alignments",
    .unit = "call",
    .params = {TM_MEMFN_IMPL_PARAM,
               {"size", TM_MEMFN_SIZES, "bytes compared"},
               {"aalign", "0", "first area's offset from a page boundary"},
               {"balign", "0", "second area's offset from a page boundary"}},
    .setup = setup_memcmp,
    .run = run_memcmp,
    .teardown = teardown_memcmp,
};
