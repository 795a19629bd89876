/* trap.syscall — a system call's round trip: into the kernel by the CPU's system-call instruction
 * and back (SVC on Arm, ecall on RISC-V, syscall on x86-64). On bare metal the handler is the
 * port's own minimal one: it returns at once (on RISC-V it steps over the ecall first). On Linux
 * it is the kernel's getppid, made with the instruction itself (no C library in between).
 * Timed: one call per iteration of the control loop, the control loop subtracted. */
#include "trap_common.h"

#include "tickmark/osal.h"

static int setup(tm_ctx *ctx) { return tm_trap_setup(ctx, TM_TRAP_CALL); }

TM_BENCH(trap_syscall) = {
    .name = "trap.syscall",
    .summary = "system call round trip: SVC/ecall/syscall into a minimal handler (Linux: getppid) and back",
    .unit = "call",
    .setup = setup,
    .run = tm_trap_run,
    .teardown = tm_trap_teardown,
};
