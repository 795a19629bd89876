/* Non-temporal stores: none in portable C, so the benchmarks that need them report skip. */
#include <stddef.h>
#include <stdint.h>

#include "../../bench/mem/memutil.h"

int tm_arch_nt_fill(void *dst, size_t n, uint64_t v)
{
    (void)dst;
    (void)n;
    (void)v;
    return -1;
}

int tm_arch_nt_copy(void *dst, const void *src, size_t n)
{
    (void)dst;
    (void)src;
    (void)n;
    return -1;
}

const char *tm_arch_nt_name(void) { return "no non-temporal store instruction on this architecture"; }
