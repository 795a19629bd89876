/* Capabilities of Zephyr's POSIX layer in the benchmark configuration (app/prj.conf): threads
 * (pthreads with a stack each, mutexes, semaphores, condition variables, message queues; spin
 * locks are the kernel's). No file system, pipes, sockets or signals are configured, there are
 * no processes, and an OS call is a function call (nothing traps): those benchmarks skip. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

unsigned tm_port_caps(void) { return TM_REQ_THREADS; }
