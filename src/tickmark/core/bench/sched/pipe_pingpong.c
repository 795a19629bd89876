/* sched.pipe_pingpong — one operation is one round trip of a 1-byte token between this
 * process and a child process through two pipes (perf bench sched pipe, lmbench lat_pipe):
 * write, the child's read and write, our read; with cross=0 both are pinned to one CPU (two
 * context switches per round trip), with cross=1 to two CPUs (two cross-CPU wake-ups).
 * Timed: the four pipe calls and the switches or wake-ups. Not timed: fork, pinning and
 * teardown. Each round trip is also timed alone (tm_ticks) into the histogram. */
#include "../common/twoparty.h"

typedef struct {
    tm_os_pid pid;
    int to_child, from_child;
} pp_state;

static pp_state pp;

static int setup(tm_ctx *ctx)
{
    int mine, peer, a[2], b[2], r;
    int close_fd[4];
    if ((r = tp_place(ctx, (int)tm_param(ctx, "cross"), &mine, &peer)) != TM_OK)
        return r;
    if (tm_os_pipe(a) != 0)
        return tm_fail(ctx, "pipe failed");
    if (tm_os_pipe(b) != 0) {
        tm_os_close(a[0]);
        tm_os_close(a[1]);
        return tm_fail(ctx, "pipe failed");
    }
    close_fd[0] = a[1];
    close_fd[1] = b[0];
    close_fd[2] = close_fd[3] = -1;
    pp.pid = tp_fork_peer(TP_ECHO, a[0], b[1], peer, close_fd, 0);
    tm_os_close(a[0]);
    tm_os_close(b[1]);
    pp.to_child = a[1];
    pp.from_child = b[0];
    ctx->user = &pp;
    if (pp.pid < 0)
        return tm_fail(ctx, "fork failed");
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters) { tp_pingpong(ctx, pp.to_child, pp.from_child, iters, 1); }

static void teardown(tm_ctx *ctx)
{
    if (ctx->user)
        tp_stop_peer(pp.pid, pp.to_child, pp.from_child, 0);
    ctx->user = NULL;
}

TM_BENCH(sched_pipe_pingpong) = {
    .name = "sched.pipe_pingpong",
    .summary = "1-byte round trip between two processes over two pipes (2 switches same-CPU)",
    .unit = "round trip",
    .requires = TM_REQ_PROCESSES | TM_REQ_PIPES,
    .flags = TM_F_BLOCKING,
    .params = {TP_CROSS_PARAM},
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
