/* Programs on NuttX's flat build: the core is linked into the kernel's image, not a file that
 * exec or posix_spawn could start, so the exec benchmarks have nothing to run (TM_REQ_EXEC is
 * not in the caps), and `tickmark-core exec` has no program to start (port/posix/exec.c forks).
 * getpid() is NuttX's. */
#include <stdio.h>
#include <unistd.h>

#include "runner.h"
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

int tm_os_exec_run(char *const *argv, int timeout_s, const char *out_path, const char *err_path, tm_exec_run *r)
{
    (void)argv;
    (void)timeout_s;
    (void)out_path;
    (void)err_path;
    snprintf(r->err, sizeof r->err, "no program files to start in NuttX's flat build");
    return -1;
}
