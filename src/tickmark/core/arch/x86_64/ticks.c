/* x86-64 time counter: the TSC (a constant-rate reference clock: time, not core cycles),
 * ordered with lfence so that it is not read early or late. */
#include "runner.h"

uint64_t tm_ticks(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

const char *tm_arch_ticks_name(void) { return "rdtsc"; }
uint64_t tm_arch_ticks_known_khz(void) { return 0; }
