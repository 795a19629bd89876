/* FreeRTOS names itself: the hello record's "os" is "FreeRTOS", "kernel" the kernel's version
 * (tskKERNEL_VERSION_NUMBER of the tree it was built from, e.g. "V11.2.0"), and "machine" the
 * kernel's port it runs on (portable/GCC/<port>, from the board description). */
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "tickmark/osal.h"

#define TM_STR(x) #x
#define TM_XSTR(x) TM_STR(x)

int tm_os_uname(char *sys, char *release, char *machine, size_t n)
{
    snprintf(sys, n, "FreeRTOS");
    snprintf(release, n, "%s", tskKERNEL_VERSION_NUMBER);
    snprintf(machine, n, "%s", TM_XSTR(TM_RTOS_PORT));
    return 0;
}
