/* Shared by the proc benchmarks; see proc_common.h. */
#include "proc_common.h"

void proc_loop(tm_ctx *ctx, uint64_t iters, tm_os_pid (*start)(void), const char *what)
{
    uint64_t i;
    for (i = 0; i < iters; i++) {
        int status = 0;
        tm_os_pid pid = start();
        if (pid < 0 || tm_os_wait(pid, &status) != 0) {
            tm_fail(ctx, "%s: could not start or reap the child", what);
            return;
        }
        if (tm_os_exit_code(status) != 0) {
            tm_fail(ctx, "%s: child exit status %d", what, tm_os_exit_code(status));
            return;
        }
    }
}

int need_self_exe(tm_ctx *ctx)
{
    tm_os_pid pid;
    int status = 0;
    if (!tm_os_self_exe())
        return tm_skip(ctx, "this port cannot name the running program for re-exec");
    /* one trial run: under an emulator without binfmt support the exec itself fails */
    pid = tm_os_fork();
    if (pid == 0) {
        tm_os_exec_self_exit();
        tm_os_exit_now(127);
    }
    if (pid < 0 || tm_os_wait(pid, &status) != 0 || tm_os_exit_code(status) != 0)
        return tm_skip(ctx, "cannot re-execute the core binary here (exec of %s failed)", tm_os_self_exe());
    return TM_OK;
}
