/* memfn.memmove: one call of memmove on overlapping areas by the implementation `impl` names.
 * dir 0: the destination is `shift` bytes below the source (a forward copy is right);
 * dir 1: it is `shift` bytes above (the copy must run backwards). Both shift the same data
 * back and forth, like the entries of an array being opened up and closed (nbench's string
 * sort does this). The implementation is checked first (randomised sizes and overlaps in both
 * directions); a wrong one fails with the first failing case and is not timed.
 * Timed: the calls only. Headline: median ns/call.
 */
#include "memfn_common.h"

static struct {
    tm_memfn_area buf;
    char *s, *d;
    size_t n;
    void *(*fn)(void *, const void *, size_t);
} mm;

static int setup_memmove(tm_ctx *ctx)
{
    const tm_memfns *f;
    long size = tm_memfn_param(ctx, "size", 0, 1L << 30), dir = tm_memfn_param(ctx, "dir", 0, 1),
         shift = tm_memfn_param(ctx, "shift", 1, 1L << 20);
    int rc;
    if (size < 0 || dir < 0 || shift < 0)
        return TM_FAIL;
    if ((rc = tm_memfn_setup(ctx, "memmove", &f)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_area_get(ctx, &mm.buf, (size_t)(size + shift))) != TM_OK)
        return rc;
    ctx->user = &mm;
    mm.s = mm.buf.p + (dir ? 0 : shift);
    mm.d = mm.buf.p + (dir ? shift : 0);
    mm.n = (size_t)size;
    mm.fn = f->memmove_fn;
    return TM_OK;
}

static void run_memmove(tm_ctx *ctx, uint64_t iters)
{
    (void)ctx;
    while (iters--) {
        mm.fn(mm.d, mm.s, mm.n);
        tm_escape(mm.d);
    }
}

static void teardown_memmove(tm_ctx *ctx)
{
    if (ctx->user)
        tm_memfn_area_put(&mm.buf);
}

TM_BENCH(memfn_memmove) = {
    .name = "memfn.memmove",
    .summary = "memmove of size bytes over an overlap by implementation impl",
    .verifies = "memmove of this implementation agrees with the reference over random sizes and alignments",
    .unit = "call",
    .params = {TM_MEMFN_IMPL_PARAM,
               {"size", TM_MEMFN_SIZES, "bytes moved"},
               {"dir", "0,1", "0: destination below the source (forward), 1: above (backward)"},
               {"shift", "3", "distance between source and destination in bytes"}},
    .setup = setup_memmove,
    .run = run_memmove,
    .teardown = teardown_memmove,
};
