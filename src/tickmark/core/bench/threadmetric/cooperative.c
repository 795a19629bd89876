/* threadmetric.cooperative — Thread-Metric's cooperative scheduling: five threads of one priority
 * on one CPU (this one and four it starts), each counting and yielding in turn. One operation is
 * one yield that passes the CPU to the next thread; one iteration is our yield and the four
 * others', five switches round the ring. Timed: a batch of our yields (and the others' turns)
 * between two clock reads. Not timed: starting and ending the four. Each of the four must have
 * run once per round, or the run fails (a yield that did not switch). */
#include "../common/twoparty.h"

#define OTHERS 4

typedef struct {
    tm_os_thread t[OTHERS];
    int cpu, started;
    volatile int stop;
    volatile uint64_t turns[OTHERS];
} ring_state;

static ring_state ring;

static void *other(void *arg)
{
    volatile uint64_t *turns = arg;
    if (tm_os_pin_cpu(ring.cpu) != 0)
        return 0;
    while (!ring.stop) {
        (*turns)++;
        tm_os_yield();
    }
    return 0;
}

static void teardown(tm_ctx *ctx)
{
    int i;
    (void)ctx;
    ring.stop = 1;
    for (i = 0; i < ring.started; i++)
        tm_os_thread_join(ring.t[i]);
    ring.started = 0;
}

static int setup(tm_ctx *ctx)
{
    uint64_t deadline;
    int mine, i, r = tp_place(ctx, 0, &mine, &ring.cpu);
    if (r != TM_OK)
        return r;
    ring.stop = 0;
    for (i = 0; i < OTHERS; i++) {
        ring.turns[i] = 0;
        if (tm_os_thread_create(&ring.t[i], other, (void *)&ring.turns[i]) != 0)
            return tm_fail(ctx, "cannot create thread %d of the ring", i + 2);
        ring.started = i + 1;
    }
    /* a scheduler may start a new thread a time slice later (Linux's CFS): yield until all ran */
    deadline = tm_now_ns() + 2000000000u;
    for (i = 0; i < OTHERS; i++)
        while (!ring.turns[i] && tm_now_ns() < deadline)
            tm_os_yield();
    for (i = 0; i < OTHERS; i++)
        if (!ring.turns[i])
            return tm_fail(ctx, "thread %d of the ring did not run within 2 s of yields", i + 2);
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t before[OTHERS], i;
    int k;
    for (k = 0; k < OTHERS; k++)
        before[k] = ring.turns[k];
    for (i = 0; i < iters; i++)
        tm_os_yield();
    for (k = 0; k < OTHERS && iters >= 100; k++)
        if (ring.turns[k] - before[k] < iters / 2) {
            tm_fail(ctx, "a yield did not pass the CPU round the ring (thread %d ran %llu times in %llu)", k + 2,
                    (unsigned long long)(ring.turns[k] - before[k]), (unsigned long long)iters);
            return;
        }
}

TM_BENCH(threadmetric_cooperative) = {
    .name = "threadmetric.cooperative",
    .summary = "cooperative scheduling: a yield to the next of five equal-priority threads on one CPU",
    .unit = "switch",
    .ops_per_iter = OTHERS + 1,
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
