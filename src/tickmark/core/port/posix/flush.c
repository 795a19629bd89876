/* Cache flush on a POSIX system: the standard has no way to learn the size of the caches, so
 * this port cannot size a flush and says so (the Linux port reads the kernel's sizes). */
#include <stdio.h>

#include "tickmark/osal.h"

int tm_os_flush_caches(char *how, size_t len)
{
    snprintf(how, len, "the %s port cannot tell how large the caches are, so it cannot flush them", tm_port_name());
    return -1;
}
