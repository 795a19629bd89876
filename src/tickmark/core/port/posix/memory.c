/* Heap and page mappings. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tickmark/osal.h"

void *tm_os_alloc(size_t bytes) { return malloc(bytes); }
void tm_os_free(void *p) { free(p); }

void *tm_os_map(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

int tm_os_unmap(void *p, size_t bytes) { return munmap(p, bytes); }

size_t tm_os_page_size(void)
{
    long n = sysconf(_SC_PAGESIZE);
    return n > 0 ? (size_t)n : 4096;
}
