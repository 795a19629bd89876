/* ARMv7-A (Cortex-A7, Cortex-A15) time base: the PMU cycle counter PMCCNTR when it counts (the
 * program runs in a privileged mode, where it can enable it), its rate measured against the
 * generic timer (CNTVCT at CNTFRQ) over 1 ms and rounded to whole MHz; else the generic timer
 * itself. PMCCNTR is 32 bits, extended in software (a sample reads it far more often than it
 * wraps); CNTVCT is 64 bits. */
#include "timebase.h"

static uint32_t last;
static uint64_t high;

static uint32_t pmccntr(void)
{
    uint32_t v;
    __asm__ __volatile__("isb\n\tmrc p15, 0, %0, c9, c13, 0" : "=r"(v) : : "memory");
    return v;
}

static uint64_t read_pmccntr(void) { return tm_bm_extend(pmccntr(), 32, &last, &high); }

static uint64_t read_cntvct(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi) : : "memory");
    return (uint64_t)hi << 32 | lo;
}

static uint64_t cntfrq(void)
{
    uint32_t f;
    __asm__ __volatile__("mrc p15, 0, %0, c14, c0, 0" : "=r"(f));
    return f;
}

void tm_bm_timebase_pick(tm_bm_timebase *tb)
{
    uint32_t pmcr, c0, c1;
    uint64_t t0, t1, f = cntfrq();
    __asm__ __volatile__("mrc p15, 0, %0, c9, c12, 0" : "=r"(pmcr));
    pmcr |= 1u | 4u; /* E: enable, C: reset the cycle counter */
    __asm__ __volatile__("mcr p15, 0, %0, c9, c12, 0\n\t"  /* PMCR */
                         "mcr p15, 0, %1, c9, c12, 1\n\t"  /* PMCNTENSET: the cycle counter */
                         "isb" : : "r"(pmcr), "r"(1u << 31));
    t0 = read_cntvct();
    c0 = pmccntr();
    do
        t1 = read_cntvct();
    while (t1 - t0 < f / 1000);
    c1 = pmccntr();
    last = 0;
    high = 0;
    if (c1 != c0) {
        uint64_t hz = (uint64_t)(c1 - c0) * f / (t1 - t0);
        tb->name = "pmccntr";
        tb->hz = (hz + 500000) / 1000000 * 1000000;
        tb->cycles = 1;
        tb->read = read_pmccntr;
    } else {
        tb->name = "cntvct";
        tb->hz = f;
        tb->cycles = 0;
        tb->read = read_cntvct;
    }
    if (!tb->hz)
        tb->hz = 1;
}
