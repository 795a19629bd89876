/* Capabilities of SylixOS as the BSP's first thread: threads (pthreads, with mutexes,
 * semaphores, condition variables and POSIX message queues) and the OS calls of sys.*; the
 * kernel is linked with the core into one image, so an OS call is a function call. No processes
 * to fork, no program file to exec, one CPU. Files, pipes, sockets and signals are left out: the
 * BSP mounts no file system the benchmarks could use. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

unsigned tm_port_caps(void) { return TM_REQ_THREADS | TM_REQ_SYSCALLS; }
