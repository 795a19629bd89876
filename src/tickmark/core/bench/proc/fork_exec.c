/* proc.fork_exec — one operation is fork(), execve() of a program that exits at once, and
 * wait (lmbench lat_proc exec). The program is this core binary re-executed with
 * TICKMARK_EXIT_NOW=1, which exits 0 in a constructor before main(); so the figure includes
 * loading the core binary (its size and static/dynamic linking), not a hand-made tiny one.
 * A non-zero exit status (exec failed) fails the run. Timed: fork, exec, the child's start-up
 * to the constructor, exit and wait. Not timed: the one trial exec in setup. */
#include "proc_common.h"

static tm_os_pid start(void)
{
    tm_os_pid pid = tm_os_fork();
    if (pid == 0) {
        tm_os_exec_self_exit();
        tm_os_exit_now(127);
    }
    return pid;
}

static void run(tm_ctx *ctx, uint64_t iters) { proc_loop(ctx, iters, start, "fork+exec"); }

TM_BENCH(proc_fork_exec) = {
    .name = "proc.fork_exec",
    .summary = "fork + exec of a program that exits at once (the core itself) + wait",
    .unit = "process",
    .requires = TM_REQ_PROCESSES | TM_REQ_EXEC,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS | TM_F_SLOW,
    .setup = need_self_exe,
    .run = run,
};
