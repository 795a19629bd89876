/* Processes on NuttX's flat build, as far as the exec benchmarks ask: getpid() is NuttX's; there
 * is no program file to start (the core is linked into the kernel's image): the bare-metal
 * port's noexec.c says so. */
#include <unistd.h>

#include "tickmark/osal_prim.h"

tm_os_pid tm_os_getpid(void) { return getpid(); }
