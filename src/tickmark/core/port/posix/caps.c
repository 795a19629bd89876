/* Capabilities of the POSIX port (Linux has the same). */
#include "tickmark/bench.h"
#include "tickmark/osal.h"


unsigned tm_port_caps(void)
{
    return TM_REQ_PROCESSES | TM_REQ_THREADS | TM_REQ_FILES | TM_REQ_PIPES | TM_REQ_SOCKETS |
           TM_REQ_SIGNALS | TM_REQ_SYSCALLS | TM_REQ_EXEC | TM_REQ_MULTICORE | TM_REQ_MMAP;
}
