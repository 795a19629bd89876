/* Event counters on bare metal: the cycle counter of the time base when it counts core cycles
 * (Cortex-M DWT CYCCNT, AArch64 PMCCNTR_EL0, RISC-V mcycle), reported as the event "cycles";
 * none otherwise (a board timer such as SysTick counts time, and cycle figures then come from
 * the calibrated frequency). Under QEMU with -icount shift=0 these counters count guest
 * instructions; the harness labels them so. */
#include "runner.h"
#include "timebase.h"

static int open_count = -1;

int tm_ctr_open(void)
{
    if (open_count < 0)
        open_count = tm_bm_timebase_get()->cycles ? 1 : 0;
    return open_count;
}

int tm_ctr_count(void) { return open_count > 0 ? open_count : 0; }
const char *tm_ctr_name(int i)
{
    (void)i;
    return "cycles";
}

int tm_ctr_read(uint64_t *values)
{
    if (tm_ctr_count())
        values[0] = tm_bm_timebase_get()->read();
    return 0;
}

int tm_ctr_multiplexed(void) { return 0; }
int tm_ctr_kernel_excluded(void) { return 0; }
int tm_ctr_grouped(void) { return 0; }
int tm_ctr_cycles_index(void) { return tm_ctr_count() ? 0 : -1; }
void tm_ctr_close(void) { open_count = -1; }
const char *tm_ctr_source(void) { return "pmu"; }

const char *tm_ctr_unsupported(void)
{
    return tm_bm_timebase_get()->cycles ? "all but cycles (no PMU events in this port)"
                                        : "all (the time base counts time, not cycles)";
}
