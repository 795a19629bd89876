/* One CPU, no scheduler: nothing preempts the benchmark and no page faults happen (no paging),
 * so both counts are 0. */
#include "tickmark/osal.h"

int tm_os_cpu_count(void) { return 1; }
int tm_os_cpu_current(void) { return 0; }
int tm_os_pin_cpu(int cpu) { return cpu == 0 ? 0 : -1; }
int tm_os_yield(void) { return 0; }
long tm_os_nivcsw(void) { return 0; }
long tm_os_minflt(void) { return 0; }
int tm_os_usage_now(tm_os_usage *u)
{
    (void)u;
    return -1;
}
