/* timer.cyclic_rt — timer.cyclic at SCHED_FIFO priority 80 with memory locked (mlockall),
 * as cyclictest -p80 -m runs. Where real-time priority is not permitted, the benchmark says
 * so as its skip reason instead of measuring at normal priority under this name. Timed: as in
 * timer.cyclic. Not timed: raising the priority and locking memory (setup). */
#include "cyclic_common.h"

static int setup(tm_ctx *ctx) { return cyclic_setup(ctx, 1); }

TM_BENCH(timer_cyclic_rt) = {
    .name = "timer.cyclic_rt",
    .summary = "periodic wake-up lateness at SCHED_FIFO 80, memory locked (cyclictest -p80 -m style)",
    .unit = "period",
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS | TM_F_SLOW,
    .subs = "late",
    .params = CYCLIC_PARAMS,
    .setup = setup,
    .run = cyclic_run,
    .teardown = cyclic_teardown,
};
