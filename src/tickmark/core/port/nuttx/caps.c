/* Capabilities of NuttX in the benchmark configuration (port/nuttx/benchmark.config): threads
 * (pthreads, with mutexes, semaphores, condition variables, spin locks and POSIX message queues),
 * files (tmpfs at /tmp), pipes, local (UNIX) sockets, signals and the OS calls of sys.* (in a flat
 * build an OS call is a function call: nothing traps). No processes (no fork in a flat build, no
 * program file to exec), no mmap of anonymous memory, one CPU. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

unsigned tm_port_caps(void)
{
    return TM_REQ_THREADS | TM_REQ_FILES | TM_REQ_PIPES | TM_REQ_SOCKETS | TM_REQ_SIGNALS | TM_REQ_SYSCALLS;
}
