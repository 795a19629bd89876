/* sync.sem_pingpong — one operation is one round trip between two threads through two
 * semaphores: we post A and wait on B; the partner waits on A and posts B. cross=0 pins both
 * threads to one CPU (two switches per round trip), cross=1 to two CPUs (two wake-ups).
 * Timed: a batch of posts, waits and switches/wake-ups between two clock reads. Not timed:
 * thread creation and stop, and the per-event figure (setup): TP_EVENTS round trips, each
 * timed alone (tm_ticks), into the histogram.
 * Cold (sub-metric "cold"): one round trip, alone, after a cache flush (the partner's lines
 * flushed too). */
#include "../common/twoparty.h"

typedef struct {
    tm_os_sem *a, *b;
    tm_os_thread t;
    int cpu;
    volatile int stop;
} sp_state;

static sp_state sp;

static void *partner(void *arg)
{
    sp_state *s = arg;
    if (tm_os_pin_cpu(s->cpu) != 0)
        return NULL;
    for (;;) {
        if (tm_os_sem_wait(s->a) != 0 || s->stop)
            return NULL;
        tm_os_sem_post(s->b);
    }
}

static int round_trip(void) { return tm_os_sem_post(sp.a) != 0 || tm_os_sem_wait(sp.b) != 0 ? -1 : 0; }

static int setup(tm_ctx *ctx)
{
    int mine, r;
    if ((r = tp_place(ctx, (int)tm_param(ctx, "cross"), &mine, &sp.cpu)) != TM_OK)
        return r;
    sp.stop = 0;
    sp.a = tm_os_sem_create(0);
    sp.b = tm_os_sem_create(0);
    if (!sp.a || !sp.b || tm_os_thread_create(&sp.t, partner, &sp) != 0) {
        tm_os_sem_destroy(sp.a);
        tm_os_sem_destroy(sp.b);
        return tm_fail(ctx, "semaphore or thread creation failed");
    }
    ctx->user = &sp;
    if (tp_event_hist(ctx, round_trip, 1) != 0)
        return tm_fail(ctx, "semaphore call failed");
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters) { tp_events(ctx, round_trip, iters, "semaphore call failed"); }

static void cold(tm_ctx *ctx)
{
    if (round_trip() != 0)
        tm_fail(ctx, "semaphore call failed");
}

static void teardown(tm_ctx *ctx)
{
    if (ctx->user) {
        sp.stop = 1;
        tm_os_sem_post(sp.a);
        tm_os_thread_join(sp.t);
        tm_os_sem_destroy(sp.a);
        tm_os_sem_destroy(sp.b);
    }
    ctx->user = NULL;
}

TM_BENCH(sync_sem_pingpong) = {
    .name = "sync.sem_pingpong",
    .summary = "round trip between two threads by semaphore post/wait",
    .unit = "round trip",
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .params = {TP_CROSS_PARAM},
    .setup = setup,
    .run = run,
    .teardown = teardown,
    .cold = cold,
};
