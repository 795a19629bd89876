/* A correct user memcpy for the tests: Duff's device, eight bytes per loop turn. */
#include <stddef.h>

void *tm_user_memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t turns = (n + 7) / 8;
    if (!n)
        return dst;
    switch (n % 8) {
    case 0: do { *d++ = *s++; /* fall through */
    case 7:      *d++ = *s++; /* fall through */
    case 6:      *d++ = *s++; /* fall through */
    case 5:      *d++ = *s++; /* fall through */
    case 4:      *d++ = *s++; /* fall through */
    case 3:      *d++ = *s++; /* fall through */
    case 2:      *d++ = *s++; /* fall through */
    case 1:      *d++ = *s++;
            } while (--turns > 0);
    }
    return dst;
}
