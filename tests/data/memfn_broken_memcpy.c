/* A deliberately broken memcpy for the tests: it copies 8 bytes at a time and drops the tail
 * of sizes that are not a multiple of 8, the kind of slip a hand-written copy loop makes. */
#include <stddef.h>
#include <string.h>

void *tm_user_memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t i;
    for (i = 0; i + 8 <= n; i += 8)
        memmove(d + i, s + i, 8);
    return dst;
}
