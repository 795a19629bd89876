/* Free memory on bare metal, for the sweeps that skip what does not fit: picolibc's heap. */
#include <malloc.h>
#include <unistd.h>

#include "tickmark/osal.h"

/* What malloc can still hand out: the free blocks it holds and the room left above the heap's
 * break. mem.* sweeps skip points larger than a quarter of this. */
extern char __heap_end[];

uint64_t tm_os_mem_available(void)
{
    struct mallinfo mi = mallinfo();
    char *brk = sbrk(0);
    uint64_t above = brk != (char *)-1 && brk < __heap_end ? (uint64_t)(__heap_end - brk) : 0;
    return above + (uint64_t)mi.fordblks;
}
