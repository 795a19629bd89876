/* Free memory on NuttX: what mallinfo() says is free in the kernel's heap. (The heap itself is
 * malloc/free, and a mapping a zeroed page-aligned block, as on bare metal: the bare-metal
 * port's memory.c.) */
#include <malloc.h>

#include "tickmark/osal.h"

uint64_t tm_os_mem_available(void)
{
    struct mallinfo mi = mallinfo();
    return (uint64_t)mi.fordblks;
}
