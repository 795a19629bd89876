/* Word-at-a-time routines in portable C, the way small libcs write their generic versions:
 * bytes up to an aligned address, then whole machine words, then the tail bytes. When the two
 * buffers are not equally aligned they fall back to bytes (no shift-and-merge), since
 * unaligned word access faults or is slow on many small cores. The string routines find the
 * terminator a word at a time with the (x - 0x01..01) & ~x & 0x80..80 test; they read whole
 * aligned words, which never crosses a page. A compiler barrier per word keeps the compiler
 * from turning the loops into libc calls. */
#include <stdint.h>

#include "tickmark/memfn.h"

#define BARRIER() __asm__ __volatile__("" : : : "memory")

typedef size_t __attribute__((__may_alias__)) word;
#define W sizeof(word)
#define ONES ((word)-1 / 0xff)
#define HIGHS (ONES * 0x80)
#define HASZERO(x) (((x)-ONES) & ~(x)&HIGHS)
#define MIS(p) ((uintptr_t)(p) & (W - 1))

static void *word_memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (MIS(d) == MIS(s)) {
        for (; n && MIS(d); n--)
            *d++ = *s++;
        for (; n >= W; n -= W, d += W, s += W) {
            *(word *)d = *(const word *)s;
            BARRIER();
        }
    }
    for (; n; n--) {
        *d++ = *s++;
        BARRIER();
    }
    return dst;
}

static void *word_memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((uintptr_t)d <= (uintptr_t)s || (uintptr_t)d >= (uintptr_t)s + n)
        return word_memcpy(dst, src, n); /* a forward copy is right for these */
    d += n;
    s += n;
    if (MIS(d) == MIS(s)) {
        for (; n && MIS(d); n--)
            *--d = *--s;
        for (; n >= W; n -= W) {
            d -= W;
            s -= W;
            *(word *)d = *(const word *)s;
            BARRIER();
        }
    }
    for (; n; n--) {
        *--d = *--s;
        BARRIER();
    }
    return dst;
}

static void *word_memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    word w = ONES * (unsigned char)c;
    for (; n && MIS(d); n--)
        *d++ = (unsigned char)c;
    for (; n >= W; n -= W, d += W) {
        *(word *)d = w;
        BARRIER();
    }
    for (; n; n--) {
        *d++ = (unsigned char)c;
        BARRIER();
    }
    return dst;
}

static int word_memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    if (MIS(x) == MIS(y)) {
        for (; n && MIS(x); n--, x++, y++)
            if (*x != *y)
                return *x < *y ? -1 : 1;
        for (; n >= W && *(const word *)x == *(const word *)y; n -= W, x += W, y += W)
            BARRIER();
    }
    for (; n; n--, x++, y++) {
        if (*x != *y)
            return *x < *y ? -1 : 1;
        BARRIER();
    }
    return 0;
}

static size_t word_strlen(const char *s)
{
    const char *p = s;
    for (; MIS(p); p++)
        if (!*p)
            return (size_t)(p - s);
    for (; !HASZERO(*(const word *)p); p += W)
        BARRIER();
    for (; *p; p++)
        BARRIER();
    return (size_t)(p - s);
}

static int word_strcmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    if (MIS(x) == MIS(y)) {
        for (; MIS(x); x++, y++)
            if (!*x || *x != *y)
                return *x == *y ? 0 : (*x < *y ? -1 : 1);
        for (; *(const word *)x == *(const word *)y && !HASZERO(*(const word *)x); x += W, y += W)
            BARRIER();
    }
    for (; *x && *x == *y; x++, y++)
        BARRIER();
    return *x == *y ? 0 : (*x < *y ? -1 : 1);
}

static char *word_strcpy(char *dst, const char *src)
{
    char *d = dst;
    const char *s = src;
    if (MIS(d) == MIS(s)) {
        for (; MIS(s); s++, d++)
            if ((*d = *s) == 0)
                return dst;
        for (; !HASZERO(*(const word *)s); s += W, d += W) {
            *(word *)d = *(const word *)s;
            BARRIER();
        }
    }
    while ((*d++ = *s++) != 0)
        BARRIER();
    return dst;
}

static const tm_memfns word_fns = {"word",      word_memcpy, word_memmove, word_memset,
                                   word_memcmp, word_strlen, word_strcmp,  word_strcpy};

const tm_memfns *tm_memfns_word(void) { return &word_fns; }
