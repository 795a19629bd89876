/* Setup shared by the memfn.* benchmarks (see memfn_common.h). */
#include <string.h>

#include "memfn_common.h"
#include "tickmark/osal.h"

static const char *const impl_names[TM_MEMFN_IMPLS] = {"libc", "ref", "word", "user"};

static int has_routine(const tm_memfns *f, const char *fn)
{
    if (!strcmp(fn, "memcpy")) return f->memcpy_fn != NULL;
    if (!strcmp(fn, "memmove")) return f->memmove_fn != NULL;
    if (!strcmp(fn, "memset")) return f->memset_fn != NULL;
    if (!strcmp(fn, "memcmp")) return f->memcmp_fn != NULL;
    if (!strcmp(fn, "strlen")) return f->strlen_fn != NULL;
    if (!strcmp(fn, "strcmp")) return f->strcmp_fn != NULL;
    if (!strcmp(fn, "strcpy")) return f->strcpy_fn != NULL;
    return 0;
}

int tm_memfn_setup(tm_ctx *ctx, const char *fn, const tm_memfns **out)
{
    int64_t idx = tm_param(ctx, "impl");
    const tm_memfns *f;
    char msg[256];
    if (idx < 0 || idx >= TM_MEMFN_IMPLS)
        return tm_fail(ctx, "impl %ld: 0 libc, 1 ref, 2 word, 3 user", (long)idx);
    f = tm_memfns_impl((int)idx);
    if (!f)
        return tm_skip(ctx, "no %s routines in this build (build with --memfn FILE)",
                       impl_names[idx]);
    if (!has_routine(f, fn))
        return tm_skip(ctx, "the %s file defines no %s", impl_names[idx], fn);
    if (tm_memfns_verify(f, fn, msg, sizeof msg) != 0)
        return tm_fail(ctx, "%s", msg);
    *out = f;
    return TM_OK;
}

int tm_memfn_area_get(tm_ctx *ctx, tm_memfn_area *a, size_t bytes)
{
    size_t page = tm_os_page_size(), i;
    a->bytes = (bytes + 2 * page - 1) / page * page;
    a->p = tm_os_map(a->bytes);
    if (!a->p)
        return tm_skip(ctx, "cannot map %lu KiB", (unsigned long)(a->bytes >> 10));
    for (i = 0; i < a->bytes; i++)
        a->p[i] = (char)('a' + i % 23);
    return TM_OK;
}

void tm_memfn_area_put(tm_memfn_area *a)
{
    if (a->p)
        tm_os_unmap(a->p, a->bytes);
    a->p = NULL;
}

long tm_memfn_param(tm_ctx *ctx, const char *name, long lo, long hi)
{
    int64_t v = tm_param(ctx, name);
    if (v < lo || v > hi) {
        tm_fail(ctx, "%s %ld is outside %ld..%ld", name, (long)v, lo, hi);
        return -1;
    }
    return (long)v;
}

int tm_memfn_pair_get(tm_ctx *ctx, tm_memfn_pair *p, size_t a_bytes, size_t b_bytes)
{
    int rc;
    if ((rc = tm_memfn_area_get(ctx, &p->a, a_bytes)) != TM_OK)
        return rc;
    if ((rc = tm_memfn_area_get(ctx, &p->b, b_bytes)) != TM_OK) {
        tm_memfn_area_put(&p->a);
        return rc;
    }
    return TM_OK;
}

void tm_memfn_pair_put(tm_memfn_pair *p)
{
    tm_memfn_area_put(&p->a);
    tm_memfn_area_put(&p->b);
}

int tm_memfn_pair_params(tm_ctx *ctx, const char *a_name, const char *b_name, long *size, long *a_align,
                         long *b_align)
{
    *size = tm_memfn_param(ctx, "size", 0, 1L << 30);
    *a_align = tm_memfn_param(ctx, a_name, 0, 4095);
    *b_align = tm_memfn_param(ctx, b_name, 0, 4095);
    return *size < 0 || *a_align < 0 || *b_align < 0 ? TM_FAIL : TM_OK;
}
