/* A deliberately broken memmove for the tests: it moves the bytes right, then also changes one
 * byte 80 bytes past the end of the destination, the kind of slip an unrolled tail makes. The
 * check must see bytes well away from both areas. */
#include <stddef.h>
#include <string.h>

void *tm_user_memmove(void *dst, const void *src, size_t n)
{
    memmove(dst, src, n);
    if (n)
        ((unsigned char *)dst)[n + 80] ^= 1;
    return dst;
}
