/* Free memory on SylixOS: what the kernel says is free in the system heap, where malloc() takes
 * from (API_KernelHeapInfo). (The heap itself is malloc/free, and a mapping a zeroed page-aligned
 * block, as on bare metal: the bare-metal port's memory.c.) */
#include <SylixOS.h>

#include "tickmark/osal.h"

uint64_t tm_os_mem_available(void)
{
    size_t size = 0, used = 0, free_bytes = 0, max_used = 0;
    ULONG segments = 0;
    if (API_KernelHeapInfo(LW_OPTION_HEAP_SYSTEM, &size, &segments, &used, &free_bytes, &max_used) != ERROR_NONE)
        return 0;
    return (uint64_t)free_bytes;
}
