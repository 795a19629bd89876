/* loop.control — the empty control loop: one iteration of a counted loop whose body is only a
 * compiler barrier. It is the floor under every rate: what a loop costs with nothing in it.
 * Timed directly with nothing subtracted but the clock read; the runner measures the same
 * loop at start-up and subtracts it from every directly timed benchmark. */
#include "tickmark/bench.h"

static void run(tm_ctx *ctx, uint64_t iters)
{
    (void)ctx;
    while (iters--)
        tm_clobber();
}

TM_BENCH(loop_control) = {
    .name = "loop.control",
    .summary = "empty control loop iteration (the overhead subtracted from rates)",
    .unit = "iteration",
    .flags = TM_F_CONTROL,
    .run = run,
};
