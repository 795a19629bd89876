/* A byte-at-a-time memmove: the slow routine of the nbench study's drill-down (STRING SORT moves
 * the tail of its buffer with memmove at every exchange). Copies forwards when the destination
 * is below the source, backwards otherwise, one byte per step. */
#include <stddef.h>

void *tm_user_memmove(void *dst, const void *src, size_t n);

void *tm_user_memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else {
        d += n;
        s += n;
        while (n--)
            *--d = *--s;
    }
    return dst;
}
