/* No operating system to name itself: the hello record carries what the port and the build
 * know. */
#include "tickmark/osal.h"

int tm_os_uname(char *sys, char *release, char *machine, size_t n)
{
    (void)sys;
    (void)release;
    (void)machine;
    (void)n;
    return -1;
}
