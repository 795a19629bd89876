/* sched.pipe_pingpong — one operation is one round trip of a 1-byte token between this
 * process and a child process through two pipes (perf bench sched pipe, lmbench lat_pipe):
 * write, the child's read and write, our read; with cross=0 both are pinned to one CPU (two
 * context switches per round trip), with cross=1 to two CPUs (two cross-CPU wake-ups).
 * Timed: the four pipe calls and the switches or wake-ups. Not timed: fork, pinning and
 * teardown. Each round trip is also timed alone (tm_ticks) into the histogram. */
#include "../common/twoparty.h"

static tp_link pp;

static int setup(tm_ctx *ctx)
{
    int mine, peer, r;
    if ((r = tp_place(ctx, (int)tm_param(ctx, "cross"), &mine, &peer)) != TM_OK)
        return r;
    ctx->user = &pp;
    return tp_link_open(ctx, &pp, TP_PIPE, peer, TP_ECHO, 0);
}

static void run(tm_ctx *ctx, uint64_t iters) { tp_pingpong(ctx, pp.wfd, pp.rfd, iters, 1); }

static void teardown(tm_ctx *ctx)
{
    tp_link_close(&pp);
    ctx->user = NULL;
}

TM_BENCH(sched_pipe_pingpong) = {
    .name = "sched.pipe_pingpong",
    .summary = "1-byte round trip between two processes over two pipes (2 switches same-CPU)",
    .unit = "round trip",
    .requires = TM_REQ_PROCESSES | TM_REQ_PIPES,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .params = {TP_CROSS_PARAM},
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
