/* Heap and "mappings" on Zephyr: the C library's malloc and free (Zephyr's minimal libc: a
 * sys_heap over the arena app/prj.conf sizes, CONFIG_MINIMAL_LIBC_MALLOC_ARENA_SIZE). A mapping
 * is a zeroed, page-aligned heap block, as on bare metal: there are no pages to map. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tickmark/osal.h"

#define PAGE 4096u

void *tm_os_alloc(size_t bytes) { return malloc(bytes); }
void tm_os_free(void *p) { free(p); }

/* The block from malloc, its start rounded up to the page; the pointer malloc gave is kept in
 * the word before it (the minimal library has no aligned_alloc or memalign). */
void *tm_os_map(size_t bytes)
{
    char *raw = malloc(bytes + PAGE + sizeof(void *)), *p;
    if (!raw)
        return NULL;
    p = (char *)(((uintptr_t)raw + sizeof(void *) + PAGE - 1) / PAGE * PAGE);
    ((void **)p)[-1] = raw;
    memset(p, 0, bytes);
    return p;
}

int tm_os_unmap(void *p, size_t bytes)
{
    (void)bytes;
    if (p)
        free(((void **)p)[-1]);
    return 0;
}
