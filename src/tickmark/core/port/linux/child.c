/* A benchmark's child process dies with the runner, so that nothing outlives a killed run; and
 * `tickmark-core exec` is told (SIGTERM: it stops its program) when the harness that started it
 * dies. */
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

void tm_os_child_init(void);
void tm_os_child_init(void) { prctl(PR_SET_PDEATHSIG, SIGKILL); }

void tm_os_parent_death_signal(int sig);
void tm_os_parent_death_signal(int sig)
{
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, sig);
    if (getppid() != parent) /* gone before the request */
        raise(sig);
}
