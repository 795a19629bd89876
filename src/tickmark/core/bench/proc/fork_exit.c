/* proc.fork_exit — one operation is fork(), the child's immediate _exit(0) and the parent's
 * wait for it (lmbench lat_proc fork). Timed: all three, including copying this process's
 * page tables, which grows with the benchmark process's size. Not timed: nothing else. */
#include "proc_common.h"

static tm_os_pid start(void)
{
    tm_os_pid pid = tm_os_fork();
    if (pid == 0)
        tm_os_exit_now(0);
    return pid;
}

static void run(tm_ctx *ctx, uint64_t iters) { proc_loop(ctx, iters, start, "fork"); }

TM_BENCH(proc_fork_exit) = {
    .name = "proc.fork_exit",
    .summary = "fork + child exit + wait",
    .unit = "process",
    .requires = TM_REQ_PROCESSES,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS | TM_F_SLOW,
    .run = run,
};
