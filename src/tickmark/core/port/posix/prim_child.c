/* Children that must not outlive the benchmark, and the path of the running program.
 * Generic POSIX has neither a parent-death signal nor a portable way to name the running
 * program: children rely on EOF of their pipes, and re-exec benchmarks report skip. */
#include "tickmark/osal_prim.h"

int tm_os_peer_init(tm_os_pid parent)
{
    (void)parent;
    return 0;
}

const char *tm_os_self_exe(void) { return NULL; }
