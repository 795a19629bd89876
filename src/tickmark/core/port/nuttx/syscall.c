/* The null OS call on NuttX: getpid(). In a flat build the kernel is called like a library (no
 * trap), so this is the cheapest call into the kernel's task state, not a trap's cost. */
#include <unistd.h>

#include "tickmark/osal.h"

long tm_os_null_syscall(void) { return (long)getpid(); }
