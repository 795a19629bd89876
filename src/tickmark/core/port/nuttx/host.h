/* The debugger's (or QEMU's) semihosting interface, as far as the NuttX port uses it: the
 * command line, a host file (a long argument list), and the program's exit status. The trap
 * itself is per CPU (arch/<arch>/semihost.c). */
#ifndef TM_NUTTX_HOST_H
#define TM_NUTTX_HOST_H

#include <stddef.h>
#include <stdint.h>

/* One semihosting call: operation op with its parameter block -> the host's answer. */
intptr_t tm_nx_semihost(uintptr_t op, void *block);

#endif
