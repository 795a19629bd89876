/* memfn.strlen: one call of strlen on a string of `size` characters starting `align` bytes
 * after a page boundary, by the implementation `impl` names. The implementation is checked
 * first (randomised lengths and alignments); a wrong one fails with the first failing case
 * and is not timed. Timed: the calls only. Headline: median ns/call.
 */
#include "memfn_common.h"

static struct {
    tm_memfn_area buf;
    const char *s;
    size_t (*fn)(const char *);
} sl;

static int setup_strlen(tm_ctx *ctx)
{
    const tm_memfns *f;
    long size = tm_memfn_param(ctx, "size", 0, 1L << 30), al = tm_memfn_param(ctx, "align", 0, 4095);
    int rc;
    if (size < 0 || al < 0)
        return TM_FAIL;
    if ((rc = tm_memfn_setup(ctx, "strlen", &f)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_area_get(ctx, &sl.buf, (size_t)(size + al + 1))) != TM_OK)
        return rc;
    ctx->user = &sl;
    sl.buf.p[al + size] = 0;
    sl.s = sl.buf.p + al;
    sl.fn = f->strlen_fn;
    return TM_OK;
}

static void run_strlen(tm_ctx *ctx, uint64_t iters)
{
    size_t acc = 0;
    (void)ctx;
    while (iters--) {
        acc += sl.fn(sl.s);
        tm_escape(sl.s);
    }
    tm_sink = acc;
}

static void teardown_strlen(tm_ctx *ctx)
{
    if (ctx->user)
        tm_memfn_area_put(&sl.buf);
}

TM_BENCH(memfn_strlen) = {
    .name = "memfn.strlen",
    .summary = "strlen of a string of size characters by implementation impl",
    .verifies = "strlen of this implementation agrees with the reference over random sizes and alignments",
    .unit = "call",
    .params = {TM_MEMFN_IMPL_PARAM,
               {"size", TM_MEMFN_SIZES, "string length"},
               {"align", "0", "string offset from a page boundary"}},
    .setup = setup_strlen,
    .run = run_strlen,
    .teardown = teardown_strlen,
};
