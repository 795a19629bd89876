/* sched.yield_switch — one operation is one context switch between two threads of this
 * process pinned to the same CPU, each calling sched_yield in a loop (context_switch2's
 * yield test). One iteration is one round trip: our yield switches to the partner, whose
 * yield switches back (2 switches). Timed: a batch of yield calls and switches between two
 * clock reads (no clock read per switch). Not timed: creating and pinning the partner,
 * yielding until it has run once, and the per-event figure (setup): TP_EVENTS round trips,
 * each timed alone (so with two clock reads in it), into the histogram as half round trips.
 * The run fails if the partner did not run at least once per two of our yields (no real
 * switching). */
#include "../common/twoparty.h"

typedef struct {
    tm_os_thread t;
    int cpu;
    volatile int stop;
    volatile uint64_t partner_yields;
} yield_state;

static yield_state ys;

static void *partner(void *arg)
{
    yield_state *s = arg;
    if (tm_os_pin_cpu(s->cpu) != 0)
        return NULL;
    while (!s->stop) {
        tm_os_yield();
        s->partner_yields++;
    }
    return NULL;
}

static int yield_once(void) { return tm_os_yield(); }

static int setup(tm_ctx *ctx)
{
    uint64_t deadline;
    int mine, peer, r = tp_place(ctx, 0, &mine, &peer);
    if (r != TM_OK)
        return r;
    ys.stop = 0;
    ys.partner_yields = 0;
    ys.cpu = peer;
    if (tm_os_thread_create(&ys.t, partner, &ys) != 0)
        return tm_fail(ctx, "cannot create the partner thread");
    ctx->user = &ys;
    /* Yield until the partner has run once: a scheduler may keep a new thread waiting for a time
     * slice first (Linux's CFS starts it a slice behind), and no yield switches before that. */
    deadline = tm_now_ns() + 2000000000u;
    while (!ys.partner_yields && tm_now_ns() < deadline)
        tm_os_yield();
    if (!ys.partner_yields)
        return tm_fail(ctx, "the partner thread did not run within 2 s of yields");
    if (tp_event_hist(ctx, yield_once, 2) != 0)
        return tm_fail(ctx, "sched_yield failed");
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t before = ys.partner_yields, i;
    for (i = 0; i < iters; i++)
        tm_os_yield();
    if (iters >= 100 && ys.partner_yields - before < iters / 2)
        tm_fail(ctx, "sched_yield did not switch to the partner (%llu of %llu)",
                (unsigned long long)(ys.partner_yields - before), (unsigned long long)iters);
}

static void teardown(tm_ctx *ctx)
{
    if (ctx->user) {
        ys.stop = 1;
        tm_os_thread_join(ys.t);
        ctx->user = NULL;
    }
}

TM_BENCH(sched_yield_switch) = {
    .name = "sched.yield_switch",
    .summary = "context switch between two threads on one CPU by sched_yield",
    .unit = "switch",
    .ops_per_iter = 2,
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
