/* Cache flush on Linux: the shared walk (src/flush.c) over twice the largest cache the kernel
 * lists for CPU 0 (/sys/devices/system/cpu/cpu0/cache/index*: size and level), so that a walk
 * evicts the last level even where its replacement is not a plain LRU. */
#include <stdio.h>
#include <stdlib.h>

#include "runner.h"
#include "tickmark/osal.h"

static unsigned long read_number(const char *path, int *unit)
{
    char text[32], *end;
    unsigned long v;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    if (!fgets(text, sizeof text, f))
        text[0] = '\0';
    fclose(f);
    v = strtoul(text, &end, 10);
    *unit = *end;
    return v;
}

int tm_os_flush_caches(char *how, size_t len)
{
    static char sized_by[96];
    char size[24];
    unsigned long largest = 0;
    int i, level = 0;
    for (i = 0; i < 16; i++) {
        char path[96];
        int unit = 0, ignored;
        unsigned long size;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        size = read_number(path, &unit);
        size <<= unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : 0;
        if (size > largest) {
            largest = size;
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
            level = (int)read_number(path, &ignored);
        }
    }
    if (!largest) {
        snprintf(how, len, "the kernel lists no cache sizes (/sys/devices/system/cpu/cpu0/cache): none to flush");
        return -1;
    }
    snprintf(sized_by, sizeof sized_by, "twice the %s L%d cache, the largest the kernel lists",
             tm_size_text(largest, size, sizeof size), level);
    return tm_flush_walk(2 * (size_t)largest, sized_by, how, len);
}
