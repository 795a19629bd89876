/* The null OS call on SylixOS: getpid(). The kernel is linked with the core and called like a
 * library (no trap), so this is the cheapest call into the kernel's thread state, not a trap's
 * cost. */
#include <unistd.h>

#include "tickmark/osal.h"

long tm_os_null_syscall(void) { return (long)getpid(); }
