/* sys.clock_gettime — reading the monotonic clock (vDSO on Linux: usually no kernel entry).
 * One operation: one tm_now_ns() read. Timed: the reads only, 10 per loop iteration. */
#include "tickmark/bench.h"

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t acc = 0;
    (void)ctx;
    while (iters--)
        TM_REPEAT(acc += tm_now_ns());
    tm_sink = acc;
}

TM_BENCH(sys_clock_gettime) = {
    .name = "sys.clock_gettime",
    .summary = "read the monotonic clock (clock_gettime CLOCK_MONOTONIC)",
    .unit = "call",
    .ops_per_iter = TM_REPEAT_COUNT,
    .run = run,
};
