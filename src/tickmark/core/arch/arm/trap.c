/* Kernel-entry loops on 32-bit Arm (Cortex-M, A32/T32 Linux), each the control loop (subs, bne)
 * with one way into the kernel in front of it, so that the loop's two instructions subtract
 * exactly:
 *   call   svc #0 (the call's number in r7, Linux's register, set once before the loop and kept
 *          around it; r0 comes back changed)
 *   load   ldr.w from an address that faults (the 4-byte encoding: the handler resumes after it)
 *   undef  udf.w #1, permanently undefined (4 bytes, resumed after; not #0, which Linux takes
 *          for a Thumb-2 breakpoint and answers with SIGTRAP)
 *   store  str of a 32-bit value (the write that raises an interrupt), dsb and isb, so that the
 *          interrupt is taken before the loop goes on
 * The count in the register is 32 bits, as in loop.c: a 64-bit count runs as its low word, then
 * 2^32 at a time. */
#include "runner.h"

const unsigned tm_arch_trap_insn_bytes = 4;

enum { CALL, LOAD, UNDEF, STORE };

static void count_down(int kind, uint32_t count, uintptr_t a, uint32_t b)
{
    register uint32_t n __asm__("r2") = count;
    register uintptr_t ra __asm__("r3") = a;
    register uint32_t rb __asm__("r1") = b;
    switch (kind) {
    case CALL:
        __asm__ __volatile__("push {r7}\n\t"
                             "mov r7, %1\n"
                             "1:\tsvc #0\n\t"
                             "subs %0, %0, #1\n\t"
                             "bne 1b\n\t"
                             "pop {r7}"
                             : "+r"(n)
                             : "r"(ra)
                             : "r0", "cc", "memory");
        break;
    case LOAD:
        __asm__ __volatile__("1:\tldr.w r0, [%1]\n\t"
                             "subs %0, %0, #1\n\t"
                             "bne 1b"
                             : "+r"(n)
                             : "r"(ra)
                             : "r0", "cc", "memory");
        break;
    case UNDEF:
        __asm__ __volatile__("1:\tudf.w #1\n\t"
                             "subs %0, %0, #1\n\t"
                             "bne 1b"
                             : "+r"(n)
                             :
                             : "cc", "memory");
        break;
    default:
        __asm__ __volatile__("1:\tstr %2, [%1]\n\t"
                             "dsb\n\t"
                             "isb\n\t"
                             "subs %0, %0, #1\n\t"
                             "bne 1b"
                             : "+r"(n)
                             : "r"(ra), "r"(rb)
                             : "cc", "memory");
    }
}

static int split(int kind, uint64_t n, uintptr_t a, uint32_t b)
{
    uint32_t high = (uint32_t)(n >> 32);
    if ((uint32_t)n)
        count_down(kind, (uint32_t)n, a, b);
    while (high--)
        count_down(kind, 0, a, b);
    return 0;
}

int tm_arch_trap_call(uint64_t n, long nr) { return split(CALL, n, (uintptr_t)nr, 0); }
int tm_arch_trap_load(uint64_t n, const void *addr) { return split(LOAD, n, (uintptr_t)addr, 0); }
int tm_arch_trap_undef(uint64_t n) { return split(UNDEF, n, 0, 0); }
int tm_arch_trap_store(uint64_t n, volatile void *reg, uint32_t value)
{
    return split(STORE, n, (uintptr_t)reg, value);
}
