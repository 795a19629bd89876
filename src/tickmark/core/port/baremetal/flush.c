/* Cache flush on bare metal (and the RTOS ports that borrow this file): the shared walk
 * (src/flush.c) over twice the largest cache the board description gives (BM_CACHE_BYTES); a
 * board without caches, or whose description gives none, cannot flush and says so. Under QEMU,
 * which models no cache, the walk changes no figure: a cold call differs from a warm one only
 * where the code takes another path. */
#include <stdio.h>

#include "runner.h"
#include "tickmark/osal.h"

int tm_os_flush_caches(char *how, size_t len)
{
    static char sized_by[80];
    char size[24];
    if (TM_BM_CACHE_BYTES == 0) {
        snprintf(how, len, "the board description gives no cache to flush: BM_CACHE_BYTES is 0");
        return -1;
    }
    snprintf(sized_by, sizeof sized_by, "twice the board's %s cache (BM_CACHE_BYTES)",
             tm_size_text(TM_BM_CACHE_BYTES, size, sizeof size));
    return tm_flush_walk(2 * (size_t)TM_BM_CACHE_BYTES, sized_by, how, len);
}
