/* No operating system to name itself: the hello record carries what the port and the build
 * know. Arguments for a start without a command line (semihosting normally passes one): the
 * compiled-in TM_BUILTIN_ARGS, e.g. -DTM_BUILTIN_ARGS='"run sys.* --samples 5"'. */
#include "tickmark/osal.h"

#ifndef TM_BUILTIN_ARGS
#define TM_BUILTIN_ARGS ""
#endif

int tm_os_uname(char *sys, char *release, char *machine, size_t n)
{
    (void)sys;
    (void)release;
    (void)machine;
    (void)n;
    return -1;
}

const char *tm_port_args(void) { return TM_BUILTIN_ARGS; }
