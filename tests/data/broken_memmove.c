/* A deliberately broken memmove for tests: it copies front to back whatever the overlap, so a
 * move to a higher, overlapping address smears the source. cpu.stringsort must fail with it. */
#include <stddef.h>

void *tm_user_memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}
