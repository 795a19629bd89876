/* CPUs, scheduling and per-thread accounting on plain POSIX: no CPU id or pinning. */
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tickmark/osal.h"

int tm_os_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int tm_os_cpu_current(void) { return -1; }
int tm_os_pin_cpu(int cpu) { (void)cpu; return -1; }
int tm_os_yield(void) { return sched_yield(); }

long tm_os_nivcsw(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_nivcsw : -1;
}

long tm_os_minflt(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : -1;
}
