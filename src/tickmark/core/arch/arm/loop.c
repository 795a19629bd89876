/* The control loop on 32-bit Arm (Cortex-M, and A32/T32 Linux): two instructions per
 * iteration, a count-down that sets the flags (subs) and a branch back while not zero (bne), at
 * every -O level. The count is 32 bits in a register: a 64-bit count runs as its low word, then
 * 2^32 iterations per unit of its high word (a count of 0 in the register goes round 2^32 times). */
#include "runner.h"

static void count_down(uint32_t n)
{
    __asm__ __volatile__("1:\tsubs %0, %0, #1\n\t"
                         "bne 1b"
                         : "+l"(n)
                         :
                         : "cc", "memory");
}

void tm_control_loop(uint64_t n)
{
    uint32_t high = (uint32_t)(n >> 32);
    if ((uint32_t)n)
        count_down((uint32_t)n);
    while (high--)
        count_down(0);
}
