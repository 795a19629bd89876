/* The null system call on POSIX: getppid (never cached by a libc, unlike getpid once was). */
#include <unistd.h>

#include "tickmark/osal.h"

long tm_os_null_syscall(void) { return (long)getppid(); }
