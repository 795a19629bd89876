/* Start-up measurements: clock-read overhead, empty-loop overhead, the time-counter rate,
 * and the core frequency from a dependent ALU chain (differential: 250 vs 50 dependent adds
 * per loop iteration, so the loop's own cost cancels; the chains are tm_arch_chain50/250). */
#include "runner.h"
#include "tickmark/osal.h"

/* Time one chain run; *preempted tells whether the thread was switched out meanwhile. */
static uint64_t time_chain(uint64_t (*fn)(uint64_t), uint64_t n, int *preempted)
{
    long iv0 = tm_os_nivcsw(), iv1;
    uint64_t t0 = tm_os_now_ns(), t;
    tm_sink = fn(n);
    t = tm_os_now_ns() - t0;
    iv1 = tm_os_nivcsw();
    *preempted |= iv0 >= 0 && iv1 != iv0;
    return t;
}

/* Minimum times over repeated pairs of short runs (~0.2 and ~1 ms): noise only ever adds time,
 * so the minima converge on the undisturbed figure. Preempted pairs do not count towards the
 * 10 clean pairs that end the search early; at most 200 pairs (~0.25 s) are run. */
uint64_t tm_fcore_estimate_khz(void)
{
    uint64_t n = 100, best50 = UINT64_MAX, best250 = UINT64_MAX;
    int pair, clean = 0, ignored = 0;
    while (time_chain(tm_arch_chain50, n, &ignored) < 200000) {
        if (n >= (UINT64_C(1) << 40))
            return 0;
        n *= 2;
    }
    for (pair = 0; pair < 200 && clean < 10; pair++) {
        int preempted = 0;
        uint64_t t50 = time_chain(tm_arch_chain50, n, &preempted), t250 = time_chain(tm_arch_chain250, n, &preempted);
        clean += !preempted;
        if (t50 < best50)
            best50 = t50;
        if (t250 < best250)
            best250 = t250;
    }
    if (best250 <= best50)
        return 0;
    return n * 200 * UINT64_C(1000000) / (best250 - best50);
}

static uint64_t measure_timer_overhead_ps(void)
{
    uint64_t best = UINT64_MAX;
    int rep, i;
    for (rep = 0; rep < 7; rep++) {
        uint64_t t0 = tm_os_now_ns(), t1;
        for (i = 0; i < 1000; i++)
            tm_sink += tm_os_now_ns();
        t1 = tm_os_now_ns();
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    return best; /* ns per 1000 calls == ps per call */
}

static uint64_t measure_loop_overhead_ps(void)
{
    const uint64_t n = 1000000;
    uint64_t best = UINT64_MAX;
    int rep;
    for (rep = 0; rep < 5; rep++) {
        uint64_t t0 = tm_os_now_ns(), t1;
        tm_control_loop(n);
        t1 = tm_os_now_ns();
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    return best * 1000 / n;
}

/* The same loop in cycles, where a cycles counter is open: measured rather than converted from
 * its time, so that the cycles of a directly timed benchmark lose exactly what its time does. */
static uint64_t measure_loop_overhead_mcyc(void)
{
    const uint64_t n = 1000000;
    uint64_t best = UINT64_MAX, c0[TM_CTR_MAX], c1[TM_CTR_MAX];
    int rep, k = tm_ctr_cycles_index();
    for (rep = 0; rep < 5; rep++) {
        if (tm_ctr_read(c0) < 0)
            return 0;
        tm_control_loop(n);
        if (tm_ctr_read(c1) < 0)
            return 0;
        if (c1[k] - c0[k] < best)
            best = c1[k] - c0[k];
    }
    return best * 1000 / n;
}

uint64_t tm_ticks_khz(void)
{
    static uint64_t khz;
    uint64_t t0, c0, t1, c1;
    if (khz)
        return khz;
    khz = tm_arch_ticks_known_khz();
    if (khz)
        return khz;
    t0 = tm_os_now_ns();
    c0 = tm_ticks();
    do
        t1 = tm_os_now_ns();
    while (t1 - t0 < 20000000);
    c1 = tm_ticks();
    khz = (c1 - c0) * UINT64_C(1000000) / (t1 - t0);
    return khz ? khz : 1;
}

uint64_t tm_ticks_to_ns(uint64_t ticks) { return ticks * UINT64_C(1000000) / tm_ticks_khz(); }

uint64_t tm_now_ns(void) { return tm_os_now_ns(); }

void tm_env_measure(tm_env *env, uint64_t given_fcore_khz)
{
    env->timer_overhead_ps = measure_timer_overhead_ps();
    env->loop_overhead_ps = measure_loop_overhead_ps();
    env->fcore_khz = given_fcore_khz ? given_fcore_khz : tm_fcore_estimate_khz();
    tm_ticks_khz();
    env->loop_overhead_mcyc = 0;
    if (tm_ctr_open() > 0 && tm_ctr_cycles_index() >= 0) {
        env->cycles_method = tm_ctr_source();
        env->loop_overhead_mcyc = measure_loop_overhead_mcyc();
    } else if (given_fcore_khz) {
        env->cycles_method = "given-freq";
    } else {
        env->cycles_method = env->fcore_khz ? "calibrated-freq" : "none";
    }
    /* left open for the hello record; the runner closes them before any child starts */
}
