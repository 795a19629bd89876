/* One CPU under Zephyr's scheduler (the benchmark configuration is not SMP): pinning succeeds
 * for CPU 0 only, and yield is the POSIX layer's sched_yield() (declared in <posix_sched.h>:
 * Zephyr 2.7 has no <sched.h>), as on Linux and NuttX. The kernel counts no preemptions per
 * thread (unknown: -1) and there is no paging (no faults). */
#include <kernel.h>
#include <posix_sched.h>

#include "tickmark/osal.h"

int tm_os_cpu_count(void) { return 1; }
int tm_os_cpu_current(void) { return 0; }
int tm_os_pin_cpu(int cpu) { return cpu == 0 ? 0 : -1; }
int tm_os_yield(void) { return sched_yield(); }
long tm_os_nivcsw(void) { return -1; }
long tm_os_minflt(void) { return 0; }

int tm_os_usage_now(tm_os_usage *u)
{
    (void)u;
    return -1;
}
