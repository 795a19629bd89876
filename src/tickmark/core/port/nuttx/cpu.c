/* One CPU under the NuttX scheduler (the benchmark configuration is not SMP; the SylixOS port
 * borrows this file: its BSP starts one CPU): pinning succeeds for CPU 0 only, and yield is
 * sched_yield(), as on Linux. The kernel counts no preemptions per thread (unknown: -1) and
 * there is no paging (no faults). */
#include <sched.h>

#include "tickmark/osal.h"

int tm_os_cpu_count(void) { return 1; }
int tm_os_cpu_current(void) { return 0; }
int tm_os_pin_cpu(int cpu) { return cpu == 0 ? 0 : -1; }
int tm_os_yield(void) { return sched_yield(); }
long tm_os_nivcsw(void) { return -1; }
long tm_os_minflt(void) { return 0; }

/* NuttX's rusage has no switch or fault counts: usage is unknown. */
int tm_os_usage_now(tm_os_usage *u)
{
    (void)u;
    return -1;
}
