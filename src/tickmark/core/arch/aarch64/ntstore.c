/* Non-temporal stores on arm64: stnp (store pair, non-temporal hint), 64 bytes per loop step,
 * then a dmb so the stores are ordered before the call returns. */
#include <stddef.h>
#include <stdint.h>

#include "../../bench/mem/memutil.h"

int tm_arch_nt_fill(void *dst, size_t n, uint64_t v)
{
    char *d = dst;
    size_t i;
    for (i = 0; i < n; i += 64)
        __asm__ __volatile__("stnp %1, %1, [%0]\n\t"
                             "stnp %1, %1, [%0, #16]\n\t"
                             "stnp %1, %1, [%0, #32]\n\t"
                             "stnp %1, %1, [%0, #48]"
                             :
                             : "r"(d + i), "r"(v)
                             : "memory");
    __asm__ __volatile__("dmb ish" : : : "memory");
    return 0;
}

int tm_arch_nt_copy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    size_t i;
    for (i = 0; i < n; i += 64)
        __asm__ __volatile__("ldp x2, x3, [%1]\n\t"
                             "ldp x4, x5, [%1, #16]\n\t"
                             "ldp x6, x7, [%1, #32]\n\t"
                             "ldp x8, x9, [%1, #48]\n\t"
                             "stnp x2, x3, [%0]\n\t"
                             "stnp x4, x5, [%0, #16]\n\t"
                             "stnp x6, x7, [%0, #32]\n\t"
                             "stnp x8, x9, [%0, #48]"
                             :
                             : "r"(d + i), "r"(s + i)
                             : "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "memory");
    __asm__ __volatile__("dmb ish" : : : "memory");
    return 0;
}

const char *tm_arch_nt_name(void) { return "stnp"; }
