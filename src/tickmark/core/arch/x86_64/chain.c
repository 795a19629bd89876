/* The dependent add chains of the core-frequency estimate: x86-64 addq adds, each on the
 * previous one's result, in one asm statement so that the value stays in a register at every
 * optimisation level (only the loop counter around them may go through memory at -O0, and the
 * estimate takes the difference of the two chains, so the loop's cost cancels). */
#include "runner.h"

uint64_t tm_arch_chain50(uint64_t n)
{
    uint64_t x = tm_opaque(0);
    while (n--)
        __asm__ __volatile__(".rept 50\n\taddq $1, %0\n\t.endr" : "+r"(x));
    return x;
}

uint64_t tm_arch_chain250(uint64_t n)
{
    uint64_t x = tm_opaque(0);
    while (n--)
        __asm__ __volatile__(".rept 250\n\taddq $1, %0\n\t.endr" : "+r"(x));
    return x;
}
