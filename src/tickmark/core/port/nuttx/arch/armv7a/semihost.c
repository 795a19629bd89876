/* The Arm A-profile (AArch32) semihosting trap in the Thumb instruction set (SVC #0xAB, taken by
 * QEMU or the debugger in a privileged mode): operation in r0, parameter block in r1. */
#include "../../host.h"

intptr_t tm_nx_semihost(uintptr_t op, void *block)
{
    register uintptr_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = block;
    __asm__ __volatile__("svc #0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (intptr_t)r0;
}
