/* Kernel entry on bare metal (trap.*): the port owns the exception vectors, so each kind of entry
 * gets the architecture's minimal handler (arch/<arch>/trap.c of this port, bm_trap.h),
 * installed in the benchmark's set-up and taken out in its tear-down; the loops are the CPU's
 * (arch/<arch>/trap.c of the core). After each batch, what the handlers saw is checked: the
 * fault address they read, the interrupts they took. */
#include <stdio.h>
#include <stdlib.h>

#include "bm_trap.h"
#include "runner.h"
#include "tickmark/osal.h"

volatile uintptr_t tm_bm_trap_far;
volatile uint32_t tm_bm_trap_irqs;

static tm_bm_trap_plan plan;

const char *tm_os_trap_open(int kind)
{
    if (tm_arch_trap_call(0, 0) < 0)
        return "no kernel-entry loops for this CPU (arch/<arch>/trap.c)";
    return tm_bm_trap_install(kind, &plan);
}

static const char *entries(int kind, uint64_t n)
{
    switch (kind) {
    case TM_TRAP_CALL:
        tm_arch_trap_call(n, 0);
        return NULL;
    case TM_TRAP_ABORT:
        tm_bm_trap_far = 0;
        tm_arch_trap_load(n, plan.fault_addr);
        return n && tm_bm_trap_far != (uintptr_t)plan.fault_addr
                   ? "the load did not fault, or the handler read another fault address"
                   : NULL;
    case TM_TRAP_UNDEF:
        tm_arch_trap_undef(n);
        return NULL;
    default:
        tm_bm_trap_irqs = 0;
        tm_arch_trap_store(n, plan.raise_reg, plan.raise_value);
        return tm_bm_trap_irqs != (uint32_t)n ? "the handler took fewer interrupts than were raised" : NULL;
    }
}

const char *tm_os_trap_run(int kind, uint64_t n)
{
    const char *bad;
    tm_bm_trap_during(kind, 1);
    bad = entries(kind, n);
    tm_bm_trap_during(kind, 0);
    return bad;
}

void tm_os_trap_close(int kind) { tm_bm_trap_restore(kind); }

void tm_bm_trap_unexpected(uint64_t cause, uint64_t pc, uint64_t addr)
{
    fprintf(stderr, "tickmark-core: unexpected exception (cause 0x%llx at 0x%llx, address 0x%llx)\n",
            (unsigned long long)cause, (unsigned long long)pc, (unsigned long long)addr);
    exit(1);
}
