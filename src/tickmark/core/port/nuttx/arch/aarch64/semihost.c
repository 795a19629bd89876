/* The AArch64 semihosting trap (HLT #0xF000): operation in x0, parameter block in x1. */
#include "../../host.h"

intptr_t tm_nx_semihost(uintptr_t op, void *block)
{
    register uintptr_t x0 __asm__("x0") = op;
    register void *x1 __asm__("x1") = block;
    __asm__ __volatile__("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    return (intptr_t)x0;
}
