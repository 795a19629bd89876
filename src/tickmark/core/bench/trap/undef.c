/* trap.undef — an undefined instruction taken and returned from: the CPU refuses it (udf on Arm,
 * unimp on RISC-V, ud2 on x86-64), the handler returns past it. On bare metal the handler is the
 * port's own (Cortex-M: UsageFault); on Linux a SIGILL handler moves the PC past it.
 * Timed: one undefined instruction per iteration of the control loop, the control loop
 * subtracted. */
#include "trap_common.h"

#include "tickmark/osal.h"

static int setup(tm_ctx *ctx) { return tm_trap_setup(ctx, TM_TRAP_UNDEF); }

TM_BENCH(trap_undef) = {
    .name = "trap.undef",
    .summary = "undefined instruction taken and returned from (Linux: SIGILL)",
    .unit = "fault",
    .setup = setup,
    .run = tm_trap_run,
    .teardown = tm_trap_teardown,
};
