/* No program files to start: the exec benchmarks (TM_REQ_EXEC) and `tickmark-core exec` have
 * nothing to run, on bare metal and on an RTOS whose image is the only program (FreeRTOS; NuttX's
 * flat build borrows this file). */
#include <stdio.h>

#include "runner.h"
#include "tickmark/osal_prim.h"

int tm_os_exec_self_exit(void) { return -1; }
void tm_os_harness_bound(void) {}
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
    snprintf(r->err, sizeof r->err, "no program files to start on the %s port", tm_port_name());
    return -1;
}
