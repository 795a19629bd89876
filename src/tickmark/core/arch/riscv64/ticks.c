/* RISC-V time counter: rdtime (the platform timer; rdcycle is not readable from user space
 * on current Linux). Its rate is calibrated against the monotonic clock. */
#include "runner.h"

uint64_t tm_ticks(void)
{
    uint64_t v;
    __asm__ __volatile__("rdtime %0" : "=r"(v) : : "memory");
    return v;
}

const char *tm_arch_ticks_name(void) { return "rdtime"; }
uint64_t tm_arch_ticks_known_khz(void) { return 0; }
