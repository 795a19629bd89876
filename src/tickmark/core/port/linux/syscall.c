/* The null system call on Linux: getppid through syscall(), bypassing any libc wrapper. */
#include <sys/syscall.h>
#include <unistd.h>

#include "tickmark/osal.h"

long tm_os_null_syscall(void) { return syscall(SYS_getppid); }
