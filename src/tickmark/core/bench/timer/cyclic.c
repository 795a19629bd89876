/* timer.cyclic — periodic wake-up latency the way cyclictest measures it, at normal
 * priority: sleep until an absolute CLOCK_MONOTONIC deadline (clock_nanosleep TIMER_ABSTIME),
 * read the clock on waking, record how late we are, advance the deadline by one period (by
 * more when we woke after the next deadline: missed periods are skipped, so one long delay is
 * one late wake-up, not a burst). One operation is one wake-up; the headline ns/op is
 * therefore about period + mean lateness (more when periods were skipped). The
 * lateness itself is in the histogram (min, p50, p99, p99.9, max) and in the sub-metric
 * "late" (mean ns per wake-up). Unlike cyclictest we do not hold /dev/cpu_dma_latency at 0
 * (deep idle states stay allowed) and run one thread on the runner's CPU. Timed: the sleeps and
 * wake-ups themselves (that is the period). Not timed: nothing is set up beforehand. */
#include "cyclic_common.h"

static int setup(tm_ctx *ctx) { return cyclic_setup(ctx, 0); }

TM_BENCH(timer_cyclic) = {
    .name = "timer.cyclic",
    .summary = "periodic wake-up lateness, normal priority (cyclictest style; see histogram)",
    .unit = "period",
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS | TM_F_SLOW,
    .subs = "late",
    .params = CYCLIC_PARAMS,
    .setup = setup,
    .run = cyclic_run,
    .teardown = cyclic_teardown,
};
