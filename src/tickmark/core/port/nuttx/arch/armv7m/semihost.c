/* The Arm M-profile semihosting trap (BKPT #0xAB): operation in r0, parameter block in r1. */
#include "../../host.h"

intptr_t tm_nx_semihost(uintptr_t op, void *block)
{
    register uintptr_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = block;
    __asm__ __volatile__("bkpt #0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (intptr_t)r0;
}
