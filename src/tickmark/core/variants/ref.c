/* The reference routines: one byte at a time, the obvious way. The compiler barrier in each
 * loop keeps the compiler from recognising the loop and calling the libc routine instead. */
#include <stdint.h>

#include "tickmark/memfn.h"

#define BARRIER() __asm__ __volatile__("" : : : "memory")

static void *ref_memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t i;
    for (i = 0; i < n; i++) {
        d[i] = s[i];
        BARRIER();
    }
    return dst;
}

static void *ref_memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t i;
    if ((uintptr_t)d <= (uintptr_t)s) {
        for (i = 0; i < n; i++) {
            d[i] = s[i];
            BARRIER();
        }
    } else {
        for (i = n; i > 0; i--) {
            d[i - 1] = s[i - 1];
            BARRIER();
        }
    }
    return dst;
}

static void *ref_memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    size_t i;
    for (i = 0; i < n; i++) {
        d[i] = (unsigned char)c;
        BARRIER();
    }
    return dst;
}

static int ref_memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    size_t i;
    for (i = 0; i < n; i++) {
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
        BARRIER();
    }
    return 0;
}

static size_t ref_strlen(const char *s)
{
    size_t n = 0;
    while (s[n]) {
        n++;
        BARRIER();
    }
    return n;
}

static int ref_strcmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    while (*x && *x == *y) {
        x++;
        y++;
        BARRIER();
    }
    return *x == *y ? 0 : (*x < *y ? -1 : 1);
}

static char *ref_strcpy(char *dst, const char *src)
{
    size_t i = 0;
    while ((dst[i] = src[i]) != 0) {
        i++;
        BARRIER();
    }
    return dst;
}

static const tm_memfns ref_fns = {"ref",      ref_memcpy, ref_memmove, ref_memset,
                                  ref_memcmp, ref_strlen, ref_strcmp,  ref_strcpy};

const tm_memfns *tm_memfns_ref(void) { return &ref_fns; }
