/* Capabilities of FreeRTOS: threads (tasks), with mutexes, semaphores and queues. No processes,
 * files, pipes, sockets, signals or system calls (the kernel is a library called directly), and
 * one CPU. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

unsigned tm_port_caps(void) { return TM_REQ_THREADS; }
