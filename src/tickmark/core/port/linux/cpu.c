/* CPUs, scheduling and per-thread accounting on Linux: sched_getcpu, affinity, RUSAGE_THREAD. */
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tickmark/osal.h"

int tm_os_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int tm_os_cpu_current(void) { return sched_getcpu(); }

int tm_os_pin_cpu(int cpu)
{
    cpu_set_t set;
    if (cpu < 0 || cpu >= CPU_SETSIZE)
        return -1;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

int tm_os_yield(void) { return sched_yield(); }

long tm_os_nivcsw(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : -1;
}

long tm_os_minflt(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_minflt : -1;
}
