/* Process-wide resource usage from getrusage(RUSAGE_SELF). */
#include <sys/resource.h>

#include "tickmark/osal.h"

int tm_os_usage_now(tm_os_usage *u)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1;
    u->cpu_ns = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
                ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
    u->switches = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
    u->faults = (uint64_t)(ru.ru_minflt + ru.ru_majflt);
    return 0;
}
