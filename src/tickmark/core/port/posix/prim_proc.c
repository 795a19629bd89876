/* Process primitives for the proc and signal benchmarks (osal_prim.h): re-executing the
 * running program as a tiny child that exits at once, posix_spawn, signals.
 *
 * The exec benchmarks need a program that does nothing. Instead of shipping a second binary,
 * the core re-executes itself with TICKMARK_EXIT_NOW=1 in the environment; the constructor
 * below sees it and calls _exit(0) before main() runs (the "--exit-now" argument is only
 * there so that ps shows what the process is). The cost is that of exec'ing the core binary
 * (its size and linking mode), which the report states. */
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
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

static int native_sig(int tm_sig)
{
    switch (tm_sig) {
    case TM_SIG_USR1: return SIGUSR1;
    case TM_SIG_USR2: return SIGUSR2;
    default: return -1;
    }
}

int tm_os_sig_install(int tm_sig, void (*handler)(int))
{
    struct sigaction sa;
    int sig = native_sig(tm_sig);
    if (sig < 0)
        return -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL);
}

int tm_os_sig_default(int tm_sig)
{
    struct sigaction sa;
    int sig = native_sig(tm_sig);
    if (sig < 0)
        return -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL);
}

int tm_os_sig_send(tm_os_pid pid, int tm_sig)
{
    int sig = native_sig(tm_sig);
    return sig < 0 ? -1 : kill(pid, sig);
}
