/* The heap on NuttX: malloc/free of the kernel's heap (mm, the allocator the study compares). A
 * "mapping" is a zeroed, page-aligned heap block (a flat build has no pages to map; the 4 KiB
 * "page" of pages.c keeps the benchmarks' touching and alignment the same as elsewhere). Free
 * memory is what mallinfo() says is free in the heap. */
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

uint64_t tm_os_mem_available(void)
{
    struct mallinfo mi = mallinfo();
    return (uint64_t)mi.fordblks;
}
