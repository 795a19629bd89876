/* Programs on NuttX's flat build: the core is linked into the kernel's image, not a file that
 * exec or posix_spawn could start, so the exec benchmarks have nothing to run (TM_REQ_EXEC is
 * not in the caps). getpid() is NuttX's. */
#include <unistd.h>

#include "tickmark/osal_prim.h"

tm_os_pid tm_os_getpid(void) { return getpid(); }
int tm_os_exec_self_exit(void) { return -1; }
int tm_os_exec_shell_self_exit(void) { return -1; }
tm_os_pid tm_os_spawn_self_exit(void) { return -1; }

int tm_os_exit_code(int status)
{
    (void)status;
    return -1;
}
