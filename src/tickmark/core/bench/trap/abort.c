/* trap.abort — a data abort taken and returned from: a load the memory system refuses, the
 * handler reads the fault address register and returns past the load (a hobby kernel's entry
 * path). On bare metal the port picks the refusal: a region the MPU forbids (Cortex-M:
 * MemManage, MMFAR), an unaligned load with alignment checking on (Cortex-A: data abort,
 * FAR_EL1), a load from an address with nothing there (RISC-V: load access fault, mtval). On
 * Linux: SIGSEGV on a PROT_NONE page, whose handler takes si_addr and moves the PC past the load.
 * The handler checks that the address it read is the one loaded from.
 * Timed: one fault per iteration of the control loop, the control loop subtracted. */
#include "trap_common.h"

#include "tickmark/osal.h"

static int setup(tm_ctx *ctx) { return tm_trap_setup(ctx, TM_TRAP_ABORT); }

TM_BENCH(trap_abort) = {
    .name = "trap.abort",
    .summary = "data abort taken and returned from: fault, read the fault address, skip the load (Linux: SIGSEGV)",
    .unit = "fault",
    .setup = setup,
    .run = tm_trap_run,
    .teardown = tm_trap_teardown,
};
