/* AArch64 time base: the PMU cycle counter PMCCNTR_EL0 when it counts (the program runs at EL1,
 * where it can enable it), its rate measured against the generic timer (CNTVCT_EL0 at
 * CNTFRQ_EL0) over 1 ms and rounded to whole MHz; else the generic timer itself. */
#include "timebase.h"

static uint64_t read_pmccntr(void)
{
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, pmccntr_el0" : "=r"(v) : : "memory");
    return v;
}

static uint64_t read_cntvct(void)
{
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}

static uint64_t cntfrq(void)
{
    uint64_t f;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
    return f;
}

void tm_bm_timebase_pick(tm_bm_timebase *tb)
{
    uint64_t pmcr, c0, c1, t0, t1, f = cntfrq();
    __asm__ __volatile__("mrs %0, pmcr_el0" : "=r"(pmcr));
    pmcr |= 1u | 4u; /* E: enable, C: reset the cycle counter */
    __asm__ __volatile__("msr pmcr_el0, %0\n\t"
                         "msr pmccfiltr_el0, xzr\n\t"
                         "msr pmcntenset_el0, %1\n\tisb" : : "r"(pmcr), "r"(UINT64_C(1) << 31));
    t0 = read_cntvct();
    c0 = read_pmccntr();
    do
        t1 = read_cntvct();
    while (t1 - t0 < f / 1000);
    c1 = read_pmccntr();
    if (c1 != c0) {
        uint64_t hz = (c1 - c0) * f / (t1 - t0);
        tb->name = "pmccntr_el0";
        tb->hz = (hz + 500000) / 1000000 * 1000000;
        tb->cycles = 1;
        tb->read = read_pmccntr;
    } else {
        tb->name = "cntvct_el0";
        tb->hz = f;
        tb->cycles = 0;
        tb->read = read_cntvct;
    }
    if (!tb->hz)
        tb->hz = 1;
}
