/* Processes on NuttX's flat build: none to fork or wait for (TM_REQ_PROCESSES is not in the
 * caps, so the benchmarks that fork skip); a task ends with _exit, and kill() is NuttX's. */
#include <signal.h>
#include <unistd.h>

#include "tickmark/osal.h"

tm_os_pid tm_os_fork(void) { return -1; }
void tm_os_exit_now(int code) { _exit(code); }

int tm_os_wait(tm_os_pid pid, int *status)
{
    (void)pid;
    (void)status;
    return -1;
}

int tm_os_kill(tm_os_pid pid, int sig) { return kill(pid, sig); }
