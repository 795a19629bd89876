/* Generic time counter: the port's monotonic clock in nanoseconds. */
#include "runner.h"
#include "tickmark/osal.h"

uint64_t tm_ticks(void) { return tm_os_now_ns(); }
const char *tm_arch_ticks_name(void) { return "clock"; }
uint64_t tm_arch_ticks_known_khz(void) { return 1000000; }
