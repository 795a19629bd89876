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

/* The two areas of a routine of two operands (a source and a destination, two blocks compared):
 * both of them, or (on failure) neither. */
typedef struct {
    tm_memfn_area a, b;
} tm_memfn_pair;
int tm_memfn_pair_get(tm_ctx *ctx, tm_memfn_pair *p, size_t a_bytes, size_t b_bytes);
void tm_memfn_pair_put(tm_memfn_pair *p);

/* A parameter that must lie in [lo, hi]; fails the instance otherwise (returns -1). */
long tm_memfn_param(tm_ctx *ctx, const char *name, long lo, long hi);

/* The parameters of a routine of two operands: `size` (0 to 1 GiB) and the two operands' offsets
 * from a page boundary (0 to 4095), named a_name and b_name. TM_OK; TM_FAIL, the instance failed,
 * when one is outside its range. */
int tm_memfn_pair_params(tm_ctx *ctx, const char *a_name, const char *b_name, long *size, long *a_align,
                         long *b_align);

#endif
