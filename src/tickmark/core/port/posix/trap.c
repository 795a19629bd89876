/* Kernel entry (trap.*) on a POSIX system in general: none. Skipping the faulting instruction in
 * a signal handler needs the machine context of one OS on one CPU (port/linux/trap.c and
 * port/linux/arch/); a system call instruction needs the OS's numbers. Every kind skips, naming
 * the port (NuttX keeps this file). */
#include <stdio.h>

#include "tickmark/osal.h"

const char *tm_os_trap_open(int kind)
{
    static char why[96];
    (void)kind;
    snprintf(why, sizeof why, "the %s port has no kernel-entry hooks (tm_os_trap_open)", tm_port_name());
    return why;
}

const char *tm_os_trap_run(int kind, uint64_t n)
{
    (void)kind;
    (void)n;
    return "no kernel-entry hooks";
}

void tm_os_trap_close(int kind) { (void)kind; }
