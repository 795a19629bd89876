/* sched.pipe_pingpong — one operation is one round trip of a 1-byte token between this
 * process and a child process through two pipes (perf bench sched pipe, lmbench lat_pipe):
 * write, the child's read and write, our read; with cross=0 both are pinned to one CPU (two
 * context switches per round trip), with cross=1 to two CPUs (two cross-CPU wake-ups).
 * Timed: the four pipe calls and the switches or wake-ups. Not timed: fork, pinning and
 * teardown. Each round trip is also timed alone (tm_ticks) into the histogram. */
#include "../common/twoparty.h"

static int setup(tm_ctx *ctx) { return tp_lat_setup(ctx, TP_PIPE, 1); }

TM_BENCH(sched_pipe_pingpong) = {
    .name = "sched.pipe_pingpong",
    .summary = "1-byte round trip between two processes over two pipes (2 switches same-CPU)",
    .unit = "round trip",
    .requires = TM_REQ_PIPES,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .params = {TP_CROSS_PARAM},
    .setup = setup,
    .run = tp_lat_run,
    .teardown = tp_channel_teardown,
};
