/* One CPU under the FreeRTOS scheduler: yield is taskYIELD() (the next ready task of the same
 * priority runs), pinning succeeds for CPU 0 only. The kernel keeps no count of preemptions or
 * page faults (no paging), so these are unknown (-1) and 0. */
#include "FreeRTOS.h"
#include "task.h"

#include "tickmark/osal.h"

int tm_os_cpu_count(void) { return 1; }
int tm_os_cpu_current(void) { return 0; }
int tm_os_pin_cpu(int cpu) { return cpu == 0 ? 0 : -1; }

int tm_os_yield(void)
{
    taskYIELD();
    return 0;
}

long tm_os_nivcsw(void) { return -1; }
long tm_os_minflt(void) { return 0; }
int tm_os_usage_now(tm_os_usage *u)
{
    (void)u;
    return -1;
}
