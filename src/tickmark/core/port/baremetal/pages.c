/* Pages without paging (bare metal, FreeRTOS): the 4 KiB "page" only keeps the benchmarks'
 * touching and alignment the same as elsewhere; there are no huge pages. */
#include "tickmark/osal.h"

#define PAGE 4096u

size_t tm_os_page_size(void) { return PAGE; }

int tm_os_huge_advise(void *p, size_t bytes, int on)
{
    (void)p;
    (void)bytes;
    return on ? -1 : 0;
}

/* No paging: every page is there already. */
int tm_os_populate(void *p, size_t bytes)
{
    (void)p;
    (void)bytes;
    return 0;
}

/* No paging, so no huge pages either. */
int64_t tm_os_huge_bytes(const void *p, size_t bytes)
{
    (void)p;
    (void)bytes;
    return 0;
}
