/* loop.control — the empty control loop: one iteration of a counted loop with nothing in it, two
 * instructions (a count-down and a branch) where the architecture has its own loop
 * (arch/<arch>/loop.c: x86-64, AArch64, 32-bit Arm, RISC-V), else C. It is the floor under every
 * rate: what a loop costs with nothing in it. Timed directly with nothing subtracted but the
 * clock read; the runner measures the same loop at start-up and subtracts it from every directly
 * timed benchmark. */
#include "tickmark/bench.h"

static void run(tm_ctx *ctx, uint64_t iters)
{
    (void)ctx;
    tm_control_loop(iters);
}

TM_BENCH(loop_control) = {
    .name = "loop.control",
    .summary = "empty control loop iteration, a count-down and a branch (the overhead subtracted from rates)",
    .unit = "iteration",
    .flags = TM_F_CONTROL,
    .run = run,
};
