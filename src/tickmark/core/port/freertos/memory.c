/* The heap on FreeRTOS: pvPortMalloc/vPortFree of heap_4 (first fit, adjacent free blocks
 * merged), TM_RTOS_HEAP_SIZE bytes: the heap the RTOS study compares. A "mapping" is a zeroed
 * block of the same heap, aligned to 4 KiB by hand (heap_4 aligns to 8 bytes): the address
 * pvPortMalloc returned is kept in the word below the aligned start. (Free memory:
 * meminfo.c.) */
#include <string.h>

#include "FreeRTOS.h"

#include "tickmark/osal.h"

#define PAGE 4096u

void *tm_os_alloc(size_t bytes) { return pvPortMalloc(bytes); }
void tm_os_free(void *p) { vPortFree(p); }

void *tm_os_map(size_t bytes)
{
    char *raw = pvPortMalloc(bytes + PAGE + sizeof(void *)), *p;
    if (!raw)
        return NULL;
    p = (char *)(((uintptr_t)raw + sizeof(void *) + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
    ((void **)p)[-1] = raw;
    memset(p, 0, bytes);
    return p;
}

int tm_os_unmap(void *p, size_t bytes)
{
    (void)bytes;
    if (p)
        vPortFree(((void **)p)[-1]);
    return 0;
}
