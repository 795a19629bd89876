/* Kernel-entry loops on RISC-V, each the control loop (addi, bnez) with one way into the kernel
 * in front of it, so that the loop's two instructions subtract exactly:
 *   call   ecall (the call's number in a7, Linux's register; a0 comes back changed)
 *   load   lw from an address that faults (the handler resumes after the 4-byte load)
 *   undef  unimp (csrrw x0, cycle, x0: a write to a read-only counter), resumed after
 *   store  sw of a 32-bit value (the write that raises an interrupt)
 * The load and unimp are assembled without the compressed encodings, so that a handler skips
 * 4 bytes, as on every other architecture here but x86-64. */
#include "runner.h"

const unsigned tm_arch_trap_insn_bytes = 4;

int tm_arch_trap_call(uint64_t n, long nr)
{
    register long a7 __asm__("a7") = nr;
    if (n)
        __asm__ __volatile__("1:\tecall\n\t"
                             "addi %0, %0, -1\n\t"
                             "bnez %0, 1b"
                             : "+r"(n)
                             : "r"(a7)
                             : "a0", "memory");
    return 0;
}

int tm_arch_trap_load(uint64_t n, const void *addr)
{
    uint32_t sink;
    if (n)
        __asm__ __volatile__(".option push\n\t"
                             ".option norvc\n"
                             "1:\tlw %1, 0(%2)\n\t"
                             ".option pop\n\t"
                             "addi %0, %0, -1\n\t"
                             "bnez %0, 1b"
                             : "+r"(n), "=&r"(sink)
                             : "r"(addr)
                             : "memory");
    return 0;
}

int tm_arch_trap_undef(uint64_t n)
{
    if (n)
        __asm__ __volatile__(".option push\n\t"
                             ".option norvc\n"
                             "1:\tunimp\n\t"
                             ".option pop\n\t"
                             "addi %0, %0, -1\n\t"
                             "bnez %0, 1b"
                             : "+r"(n)
                             :
                             : "memory");
    return 0;
}

int tm_arch_trap_store(uint64_t n, volatile void *reg, uint32_t value)
{
    if (n)
        __asm__ __volatile__("1:\tsw %2, 0(%1)\n\t"
                             "addi %0, %0, -1\n\t"
                             "bnez %0, 1b"
                             : "+r"(n)
                             : "r"(reg), "r"(value)
                             : "memory");
    return 0;
}
