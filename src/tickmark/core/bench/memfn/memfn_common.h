/* Setup shared by the memfn.* benchmarks: choose the implementation, check it, get buffers. */
#ifndef TM_BENCH_MEMFN_COMMON_H
#define TM_BENCH_MEMFN_COMMON_H

#include <stddef.h>

#include "tickmark/bench.h"
#include "tickmark/memfn.h"

/* The `impl` parameter's help and default sweep, the same for every memfn.* benchmark. */
#define TM_MEMFN_IMPL_PARAM \
    {"impl", "0,1,2,3", "0 libc, 1 ref (bytewise), 2 word (word-at-a-time C), 3 user (--memfn)"}
#define TM_MEMFN_SIZES "1,64,4K,1M"

/* Pick the table the `impl` parameter names and check routine `fn` of it against the reference
 * semantics (tm_memfns_verify). TM_OK with *out set; tm_skip when the build has no such
 * routine; tm_fail with the first failing case when it is wrong, so it is never timed. */
int tm_memfn_setup(tm_ctx *ctx, const char *fn, const tm_memfns **out);

/* A page-aligned buffer of at least `bytes` (+ one spare page) filled with nonzero bytes. */
typedef struct {
    char *p;
    size_t bytes;
} tm_memfn_area;
int tm_memfn_area_get(tm_ctx *ctx, tm_memfn_area *a, size_t bytes);
void tm_memfn_area_put(tm_memfn_area *a);

/* A parameter that must lie in [lo, hi]; fails the instance otherwise (returns -1). */
long tm_memfn_param(tm_ctx *ctx, const char *name, long lo, long hi);

#endif
