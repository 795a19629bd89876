/* No OS to name itself (the hello record has the port, the compiler target and the board's
 * clock instead), and the arguments of a start without a command line: compiled in with
 * -DTM_BUILTIN_ARGS='"run cpu.*"' for a board whose console cannot pass any (a UART); with
 * semihosting, picolibc's start-up code passes the debugger's command line to main(). */
#include <stddef.h>

#include "tickmark/osal.h"

#ifndef TM_BUILTIN_ARGS
#define TM_BUILTIN_ARGS ""
#endif

int tm_os_uname(char *sys, char *release, char *machine, size_t n);
const char *tm_port_args(void);

int tm_os_uname(char *sys, char *release, char *machine, size_t n)
{
    (void)sys;
    (void)release;
    (void)machine;
    (void)n;
    return -1;
}

const char *tm_port_args(void) { return TM_BUILTIN_ARGS; }
