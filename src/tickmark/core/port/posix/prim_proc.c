/* Process primitives for the proc benchmarks (osal_prim.h): re-executing the running program
 * as a tiny child that exits at once, posix_spawn (signals: prim_signal.c).
 *
 * The exec benchmarks need a program that does nothing. Instead of shipping a second binary,
 * the core re-executes itself with TICKMARK_EXIT_NOW=1 in the environment; the constructor
 * below sees it and calls _exit(0) before main() runs (the "--exit-now" argument is only
 * there so that ps shows what the process is). The cost is that of exec'ing the core binary
 * (its size and linking mode), which the report states. */
#include <spawn.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tickmark/osal_prim.h"

#define EXIT_ENV "TICKMARK_EXIT_NOW=1"

__attribute__((constructor)) static void tm_exit_now_check(void)
{
    const char *v = getenv("TICKMARK_EXIT_NOW");
    if (v && v[0] == '1')
        _exit(0);
}

tm_os_pid tm_os_getpid(void) { return getpid(); }

static char *exit_env[] = {EXIT_ENV, NULL};

int tm_os_exec_self_exit(void)
{
    const char *self = tm_os_self_exe();
    char *argv[3];
    if (!self)
        return -1;
    argv[0] = (char *)"tickmark-core";
    argv[1] = (char *)"--exit-now";
    argv[2] = NULL;
    execve(self, argv, exit_env);
    return -1;
}

int tm_os_exec_shell_self_exit(void)
{
    const char *self = tm_os_self_exe();
    char *argv[5];
    if (!self)
        return -1;
    argv[0] = (char *)"sh";
    argv[1] = (char *)"-c";
    argv[2] = (char *)"\"$0\" --exit-now";
    argv[3] = (char *)self;
    argv[4] = NULL;
    execve("/bin/sh", argv, exit_env);
    return -1;
}

tm_os_pid tm_os_spawn_self_exit(void)
{
    const char *self = tm_os_self_exe();
    char *argv[3];
    pid_t pid;
    if (!self)
        return -1;
    argv[0] = (char *)"tickmark-core";
    argv[1] = (char *)"--exit-now";
    argv[2] = NULL;
    if (posix_spawn(&pid, self, NULL, NULL, argv, exit_env) != 0)
        return -1;
    return pid;
}

int tm_os_exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
