/* Kernel-entry loops: none in portable C (a system-call, faulting or undefined instruction is the
 * architecture's), so the trap.* benchmarks report skip on this architecture. */
#include "runner.h"

const unsigned tm_arch_trap_insn_bytes = 0;

int tm_arch_trap_call(uint64_t n, long nr)
{
    (void)n;
    (void)nr;
    return -1;
}

int tm_arch_trap_load(uint64_t n, const void *addr)
{
    (void)n;
    (void)addr;
    return -1;
}

int tm_arch_trap_undef(uint64_t n)
{
    (void)n;
    return -1;
}

int tm_arch_trap_store(uint64_t n, volatile void *reg, uint32_t value)
{
    (void)n;
    (void)reg;
    (void)value;
    return -1;
}
