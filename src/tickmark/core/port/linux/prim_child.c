/* Children that must not outlive the benchmark, and the path of the running program (linux). */
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "tickmark/osal_prim.h"

int tm_os_peer_init(tm_os_pid parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
        return -1;
    if (getppid() != parent) /* the parent died before prctl took effect */
        _exit(1);
    return 0;
}

const char *tm_os_self_exe(void)
{
    static char path[4096];
    if (!path[0]) {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n <= 0)
            return NULL;
        path[n] = 0;
    }
    return path;
}
