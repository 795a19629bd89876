/* A word-at-a-time memmove in portable C99: the "fixed" routine of the profile story
 * (docs/profile.md). Eight bytes per load and store, four per loop turn; the loads go through
 * memcpy into a local, which compilers turn into one unaligned load, so source and destination
 * need not be equally aligned. Forward when the destination is below the source, backward
 * otherwise; each turn loads its 32 bytes before it stores them, so overlap is safe. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t word;
#define W sizeof(word)
#define BARRIER() __asm__ __volatile__("" : : : "memory") /* keeps gcc from calling memmove */

static word ld(const unsigned char *p)
{
    word w;
    memcpy(&w, p, W);
    return w;
}

static void st(unsigned char *p, word w) { memcpy(p, &w, W); }

void *tm_user_memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d == s || n == 0)
        return dst;
    if ((uintptr_t)d < (uintptr_t)s) {
        for (; n >= 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W) {
            word a = ld(s), b = ld(s + W), c = ld(s + 2 * W), e = ld(s + 3 * W);
            st(d, a), st(d + W, b), st(d + 2 * W, c), st(d + 3 * W, e);
            BARRIER();
        }
        for (; n >= W; n -= W, d += W, s += W)
            st(d, ld(s));
        while (n--)
            *d++ = *s++;
    } else {
        d += n;
        s += n;
        for (; n >= 4 * W; n -= 4 * W) {
            word a, b, c, e;
            d -= 4 * W;
            s -= 4 * W;
            a = ld(s), b = ld(s + W), c = ld(s + 2 * W), e = ld(s + 3 * W);
            st(d, a), st(d + W, b), st(d + 2 * W, c), st(d + 3 * W, e);
            BARRIER();
        }
        for (; n >= W; n -= W) {
            d -= W;
            s -= W;
            st(d, ld(s));
        }
        while (n--)
            *--d = *--s;
    }
    return dst;
}
