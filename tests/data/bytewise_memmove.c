/* The slow memmove of the profile story (docs/profile.md): one byte at a time, the way a small
 * libc or an RTOS's C library may do it. The compiler barrier in each loop keeps the compiler from
 * recognising the loop and calling the C library's memmove instead.
 *   tickmark run cpu.stringsort --memfn tests/data/bytewise_memmove.c */
#include <stddef.h>
#include <stdint.h>

#define BARRIER() __asm__ __volatile__("" : : : "memory")

void *tm_user_memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((uintptr_t)d <= (uintptr_t)s) {
        while (n--) {
            *d++ = *s++;
            BARRIER();
        }
    } else {
        while (n--) {
            d[n] = s[n];
            BARRIER();
        }
    }
    return dst;
}
