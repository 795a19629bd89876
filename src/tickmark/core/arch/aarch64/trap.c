/* Kernel-entry loops on AArch64, each the control loop (subs, b.ne) with one way into the kernel
 * in front of it, so that the loop's two instructions subtract exactly:
 *   call   svc #0 (the call's number in x8, Linux's register; x0 comes back changed)
 *   load   ldr from an address that faults (the handler resumes after the 4-byte load)
 *   undef  udf #0, permanently undefined (the handler resumes after it)
 *   store  str of a 32-bit value (the write that raises an interrupt), dsb sy and isb, so that
 *          the interrupt is taken before the loop goes on */
#include "runner.h"

const unsigned tm_arch_trap_insn_bytes = 4;

int tm_arch_trap_call(uint64_t n, long nr)
{
    register long x8 __asm__("x8") = nr;
    if (n)
        __asm__ __volatile__("1:\tsvc #0\n\t"
                             "subs %0, %0, #1\n\t"
                             "b.ne 1b"
                             : "+r"(n)
                             : "r"(x8)
                             : "x0", "cc", "memory");
    return 0;
}

int tm_arch_trap_load(uint64_t n, const void *addr)
{
    uint32_t sink;
    if (n)
        __asm__ __volatile__("1:\tldr %w1, [%2]\n\t"
                             "subs %0, %0, #1\n\t"
                             "b.ne 1b"
                             : "+r"(n), "=&r"(sink)
                             : "r"(addr)
                             : "cc", "memory");
    return 0;
}

int tm_arch_trap_undef(uint64_t n)
{
    if (n)
        __asm__ __volatile__("1:\tudf #0\n\t"
                             "subs %0, %0, #1\n\t"
                             "b.ne 1b"
                             : "+r"(n)
                             :
                             : "cc", "memory");
    return 0;
}

int tm_arch_trap_store(uint64_t n, volatile void *reg, uint32_t value)
{
    if (n)
        __asm__ __volatile__("1:\tstr %w2, [%1]\n\t"
                             "dsb sy\n\t"
                             "isb\n\t"
                             "subs %0, %0, #1\n\t"
                             "b.ne 1b"
                             : "+r"(n)
                             : "r"(reg), "r"(value)
                             : "cc", "memory");
    return 0;
}
