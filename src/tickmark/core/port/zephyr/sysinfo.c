/* The OS's names for itself for the hello record: "Zephyr", the kernel's version and the
 * Zephyr board the image was built for; and the arguments of a start without a command line. */
#include <stdio.h>
#include <version.h>
#include <zephyr.h>

#include "tickmark/osal.h"

#ifndef TM_BUILTIN_ARGS
#define TM_BUILTIN_ARGS ""
#endif

int tm_os_uname(char *sys, char *release, char *machine, size_t n)
{
    snprintf(sys, n, "Zephyr");
    snprintf(release, n, "%s", KERNEL_VERSION_STRING);
    snprintf(machine, n, "%s", CONFIG_BOARD);
    return 0;
}

const char *tm_port_args(void) { return TM_BUILTIN_ARGS; }
