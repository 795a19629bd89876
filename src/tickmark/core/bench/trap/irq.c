/* trap.irq — an interrupt raised by software, from the raise to the handler's return: a write to
 * the interrupt controller (Cortex-M: the NVIC's set-pending register; Cortex-A: a GICv2
 * software-generated interrupt to itself; RISC-V: the CLINT's machine software interrupt) and
 * the barrier that makes it be taken, then the handler (acknowledge, count, return). The
 * handler's count is checked against the raises, so that a lost interrupt fails the benchmark.
 * Only where the port owns the interrupt controller: bare metal; Linux gives user space no way.
 * Timed: one interrupt per iteration of the control loop, the control loop subtracted. */
#include "trap_common.h"

#include "tickmark/osal.h"

static int setup(tm_ctx *ctx) { return tm_trap_setup(ctx, TM_TRAP_IRQ); }

TM_BENCH(trap_irq) = {
    .name = "trap.irq",
    .summary = "software-raised interrupt: NVIC pend, GIC SGI, CLINT MSIP, to the handler and back",
    .unit = "interrupt",
    .setup = setup,
    .run = tm_trap_run,
    .teardown = tm_trap_teardown,
};
