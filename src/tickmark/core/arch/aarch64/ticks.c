/* AArch64 time counter: the generic timer's virtual count (typically 1-50 MHz: time, not
 * core cycles), after an isb so that it is not read early. */
#include "runner.h"

uint64_t tm_ticks(void)
{
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}

const char *tm_arch_ticks_name(void) { return "cntvct_el0"; }

uint64_t tm_arch_ticks_known_khz(void)
{
    uint64_t f;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
    return f / 1000;
}
