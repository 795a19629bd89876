/* Capabilities of bare metal: none of the TM_REQ_* bits. Benchmarks that need processes,
 * threads, files, pipes, sockets, signals, system calls or mmap report
 * "skip: the baremetal port lacks ..."; cpu.*, mem.*, memfn.*, heap.* and loop.control run. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

unsigned tm_port_caps(void) { return 0; }
