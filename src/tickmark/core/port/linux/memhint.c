/* Transparent huge pages through madvise, and MemAvailable from /proc/meminfo. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "tickmark/osal.h"

/* "always [madvise] never": the bracketed word is the system-wide mode. */
static int thp_enabled(void)
{
    char line[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f)
        return 0;
    if (!fgets(line, sizeof line, f))
        line[0] = 0;
    fclose(f);
    return line[0] && !strstr(line, "[never]");
}

int tm_os_huge_advise(void *p, size_t bytes, int on)
{
    if (on && !thp_enabled())
        return -1;
    return madvise(p, bytes, on ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
}

uint64_t tm_os_mem_available(void)
{
    char line[256];
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}
