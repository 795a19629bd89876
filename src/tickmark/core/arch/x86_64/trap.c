/* Kernel-entry loops on x86-64, each the control loop (dec, jnz) with one way into the kernel in
 * front of it, so that the loop's two instructions subtract exactly:
 *   call   mov of the call's number into eax, then syscall (which returns in rax and changes rcx
 *          and r11: the mov is in the loop, and in the figure)
 *   load   movl (%rdi), %eax from an address that faults (2 bytes: the handler resumes after)
 *   undef  ud2 (2 bytes, resumed after)
 * No store raises an interrupt from user space: tm_arch_trap_store is not there (-1). */
#include "runner.h"

const unsigned tm_arch_trap_insn_bytes = 2;

int tm_arch_trap_call(uint64_t n, long nr)
{
    if (n)
        __asm__ __volatile__("1:\tmovl %k1, %%eax\n\t"
                             "syscall\n\t"
                             "dec %0\n\t"
                             "jnz 1b"
                             : "+r"(n)
                             : "r"(nr)
                             : "rax", "rcx", "r11", "cc", "memory");
    return 0;
}

int tm_arch_trap_load(uint64_t n, const void *addr)
{
    if (n)
        __asm__ __volatile__("1:\tmovl (%%rdi), %%eax\n\t"
                             "dec %0\n\t"
                             "jnz 1b"
                             : "+r"(n)
                             : "D"(addr)
                             : "rax", "cc", "memory");
    return 0;
}

int tm_arch_trap_undef(uint64_t n)
{
    if (n)
        __asm__ __volatile__("1:\tud2\n\t"
                             "dec %0\n\t"
                             "jnz 1b"
                             : "+r"(n)
                             :
                             : "cc", "memory");
    return 0;
}

int tm_arch_trap_store(uint64_t n, volatile void *reg, uint32_t value)
{
    (void)n;
    (void)reg;
    (void)value;
    return -1;
}
