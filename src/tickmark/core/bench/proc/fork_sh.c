/* proc.fork_sh — one operation is fork(), execve("/bin/sh", "-c", "<core> --exit-now") and
 * wait (lmbench lat_proc shell): the shell starts, runs the core binary, which exits at once
 * (TICKMARK_EXIT_NOW=1), and the shell exits with its status. Timed: all of it. */
#include "proc_common.h"

static tm_os_pid start(void)
{
    tm_os_pid pid = tm_os_fork();
    if (pid == 0) {
        tm_os_exec_shell_self_exit();
        tm_os_exit_now(127);
    }
    return pid;
}

static void run(tm_ctx *ctx, uint64_t iters) { proc_loop(ctx, iters, start, "fork+sh"); }

static int setup(tm_ctx *ctx)
{
    uint64_t size;
    if (tm_os_stat_size("/bin/sh", &size) != 0)
        return tm_skip(ctx, "no /bin/sh");
    return need_self_exe(ctx);
}

TM_BENCH(proc_fork_sh) = {
    .name = "proc.fork_sh",
    .summary = "fork + /bin/sh -c running a program that exits at once + wait",
    .unit = "process",
    .requires = TM_REQ_PROCESSES | TM_REQ_EXEC,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS | TM_F_SLOW,
    .setup = setup,
    .run = run,
};
