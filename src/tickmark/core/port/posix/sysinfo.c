/* The OS's names for itself (uname) for the hello record, and the arguments of a start without
 * a command line. A port without uname() returns -1; a bare-metal port replaces this file. */
#include <stdio.h>
#include <sys/utsname.h>

#include "tickmark/osal.h"

#ifndef TM_BUILTIN_ARGS
#define TM_BUILTIN_ARGS ""
#endif

int tm_os_uname(char *sys, char *release, char *machine, size_t n)
{
    struct utsname u;
    if (uname(&u) != 0)
        return -1;
    snprintf(sys, n, "%s", u.sysname);
    snprintf(release, n, "%s", u.release);
    snprintf(machine, n, "%s", u.machine);
    return 0;
}

const char *tm_port_args(void) { return TM_BUILTIN_ARGS; }
