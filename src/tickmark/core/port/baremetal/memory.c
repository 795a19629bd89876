/* Heap and "mappings" on bare metal: the C library's heap (picolibc: from the end of .bss to
 * the stack). A mapping is a zeroed, page-aligned heap block: there are no pages to map, the
 * 4 KiB "page" only keeps the benchmarks' touching and alignment the same as elsewhere. (What
 * the heap still has: meminfo.c.) */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "tickmark/osal.h"

#define PAGE 4096u

void *tm_os_alloc(size_t bytes) { return malloc(bytes); }
void tm_os_free(void *p) { free(p); }

void *tm_os_map(size_t bytes)
{
    void *p = memalign(PAGE, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

int tm_os_unmap(void *p, size_t bytes)
{
    (void)bytes;
    free(p);
    return 0;
}
