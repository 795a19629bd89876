/* Processes: fork, exit, wait, kill. */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tickmark/osal.h"

tm_os_pid tm_os_fork(void) { return fork(); }
void tm_os_exit_now(int code) { _exit(code); }

int tm_os_wait(tm_os_pid pid, int *status)
{
    pid_t r;
    do
        r = waitpid(pid, status, 0);
    while (r < 0 && errno == EINTR);
    return r < 0 ? -1 : 0;
}

int tm_os_kill(tm_os_pid pid, int sig) { return kill(pid, sig); }
