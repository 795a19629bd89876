/* Memory hints where POSIX has no huge-page interface: "off" is what it already is, and pages
 * are faulted in by writing to them. */
#include <unistd.h>

#include "tickmark/osal.h"

int tm_os_huge_advise(void *p, size_t bytes, int on)
{
    (void)p;
    (void)bytes;
    return on ? -1 : 0;
}

int tm_os_populate(void *p, size_t bytes)
{
    (void)p;
    (void)bytes;
    return -1;
}

int64_t tm_os_huge_bytes(const void *p, size_t bytes)
{
    (void)p;
    (void)bytes;
    return -1;
}

uint64_t tm_os_mem_available(void)
{
#ifdef _SC_AVPHYS_PAGES
    long n = sysconf(_SC_AVPHYS_PAGES);
    if (n > 0)
        return (uint64_t)n * tm_os_page_size();
#endif
    return 0;
}
