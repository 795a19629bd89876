/* Interrupt to thread (irq.*) on bare metal and the RTOSes built on it: the software interrupt
 * of trap.irq, with the benchmark's C function as its handler (arch/<arch>/trap.c of this port:
 * tm_bm_irq_attach), raised by the CPU's store loop (tm_arch_trap_store). */
#include "bm_trap.h"
#include "runner.h"
#include "tickmark/osal.h"

static tm_bm_trap_plan plan;

const char *tm_os_irq_attach(void (*isr)(void))
{
    if (tm_arch_trap_call(0, 0) < 0)
        return "no kernel-entry loops for this CPU (arch/<arch>/trap.c)";
    return tm_bm_irq_attach(isr, &plan);
}

void tm_os_irq_raise(void) { tm_arch_trap_store(1, plan.raise_reg, plan.raise_value); }
void tm_os_irq_raise_loop(uint64_t n) { tm_arch_trap_store(n, plan.raise_reg, plan.raise_value); }
void tm_os_irq_detach(void) { tm_bm_irq_detach(); }
