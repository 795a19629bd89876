/* RISC-V time base (machine mode): the cycle counter (mcycle, read as `cycle`) when it counts,
 * its rate measured against the platform timer (`time`, at the board's TM_BM_COUNTER_HZ) over
 * 1 ms and rounded to whole MHz; else the platform timer itself. */
#include "timebase.h"

static uint64_t read_cycle(void)
{
    uint64_t v;
    __asm__ __volatile__("csrr %0, cycle" : "=r"(v) : : "memory");
    return v;
}

static uint64_t read_time(void)
{
    uint64_t v;
    __asm__ __volatile__("csrr %0, time" : "=r"(v) : : "memory");
    return v;
}

void tm_bm_timebase_pick(tm_bm_timebase *tb)
{
    uint64_t f = TM_BM_COUNTER_HZ, c0, c1, t0, t1;
    t0 = read_time();
    c0 = read_cycle();
    do
        t1 = read_time();
    while (t1 - t0 < f / 1000);
    c1 = read_cycle();
    if (c1 != c0) {
        uint64_t hz = (c1 - c0) * f / (t1 - t0);
        tb->name = "mcycle";
        tb->hz = (hz + 500000) / 1000000 * 1000000;
        tb->cycles = 1;
        tb->read = read_cycle;
    } else {
        tb->name = "mtime";
        tb->hz = f;
        tb->cycles = 0;
        tb->read = read_time;
    }
    if (!tb->hz)
        tb->hz = 1;
}
