/* Transparent huge pages through madvise (checked in /proc/self/smaps), pages faulted in at
 * once (MADV_POPULATE_WRITE), and MemAvailable from /proc/meminfo. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "tickmark/osal.h"

#define TM_MADV_POPULATE_WRITE 23 /* <linux/mman.h>; older C libraries do not name it */

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

/* MADV_POPULATE_WRITE (Linux 5.14): the write faults of the whole range in one call; an older
 * kernel answers EINVAL and the caller touches the pages. */
int tm_os_populate(void *p, size_t bytes)
{
    return madvise(p, bytes, TM_MADV_POPULATE_WRITE);
}

/* The AnonHugePages of every mapping that overlaps [p, p+bytes), each capped at the overlap
 * (madvise splits a mapping where the advice changes, so the region is its own mapping). */
int64_t tm_os_huge_bytes(const void *p, size_t bytes)
{
    char line[512];
    uintptr_t lo = (uintptr_t)p, hi = lo + bytes, a = 0, b = 0;
    int64_t total = 0;
    int inside = 0;
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long s0, s1, kb;
        if (sscanf(line, "%lx-%lx ", &s0, &s1) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            a = s0 > lo ? s0 : lo;
            b = s1 < hi ? s1 : hi;
            inside = a < b;
        } else if (inside && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1) {
            uint64_t got = (uint64_t)kb << 10;
            total += (int64_t)(got < b - a ? got : b - a);
        }
    }
    fclose(f);
    return total;
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
