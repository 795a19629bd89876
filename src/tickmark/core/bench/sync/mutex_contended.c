/* sync.mutex_contended — two threads pinned to two CPUs each lock, increment a shared
 * counter and unlock the same mutex iters times; one iteration is one such lock + unlock in
 * each thread (2 operations) and the batch ends when both have finished, so the figure is the
 * mean cost of a lock + unlock under contention whichever thread wins (futex waits and wakes
 * included). Timed: both threads' loops plus one semaphore hand-off to start the partner and
 * one to collect it (about two wake-ups per batch). Not timed: creating and stopping the
 * partner. The shared counter is checked: a lost update fails the run. */
#include "../common/twoparty.h"

typedef struct {
    tm_os_mutex m;
    tm_os_sem *go, *done;
    tm_os_thread t;
    int cpu;
    volatile int stop;
    volatile uint64_t shared, partner_iters;
} mc_state;

static mc_state mc;

static void *partner(void *arg)
{
    mc_state *s = arg;
    uint64_t i;
    if (tm_os_pin_cpu(s->cpu) != 0)
        return NULL;
    for (;;) {
        if (tm_os_sem_wait(s->go) != 0 || s->stop)
            return NULL;
        for (i = 0; i < s->partner_iters; i++) {
            tm_os_mutex_lock(&s->m);
            s->shared++;
            tm_os_mutex_unlock(&s->m);
        }
        tm_os_sem_post(s->done);
    }
}

static int setup(tm_ctx *ctx)
{
    int mine, peer, r;
    if ((r = tp_place(ctx, 1, &mine, &peer)) != TM_OK)
        return r;
    if (tm_os_mutex_init(&mc.m) != 0)
        return tm_fail(ctx, "mutex init failed");
    mc.stop = 0;
    mc.cpu = peer;
    mc.go = tm_os_sem_create(0);
    mc.done = tm_os_sem_create(0);
    if (!mc.go || !mc.done || tm_os_thread_create(&mc.t, partner, &mc) != 0) {
        tm_os_sem_destroy(mc.go);
        tm_os_sem_destroy(mc.done);
        tm_os_mutex_destroy(&mc.m);
        return tm_fail(ctx, "cannot create the partner thread");
    }
    ctx->user = &mc;
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t before = mc.shared, i;
    mc.partner_iters = iters;
    tm_os_sem_post(mc.go);
    for (i = 0; i < iters; i++) {
        tm_os_mutex_lock(&mc.m);
        mc.shared++;
        tm_os_mutex_unlock(&mc.m);
    }
    tm_os_sem_wait(mc.done);
    if (mc.shared - before != 2 * iters)
        tm_fail(ctx, "lost updates under the mutex (%llu of %llu)",
                (unsigned long long)(mc.shared - before), (unsigned long long)(2 * iters));
}

static void teardown(tm_ctx *ctx)
{
    if (ctx->user) {
        mc.stop = 1;
        tm_os_sem_post(mc.go);
        tm_os_thread_join(mc.t);
        tm_os_sem_destroy(mc.go);
        tm_os_sem_destroy(mc.done);
        tm_os_mutex_destroy(&mc.m);
    }
    ctx->user = NULL;
}

TM_BENCH(sync_mutex_contended) = {
    .name = "sync.mutex_contended",
    .summary = "mutex lock + unlock, two threads on two CPUs hammering the same mutex",
    .unit = "lock+unlock",
    .ops_per_iter = 2,
    .requires = TM_REQ_THREADS | TM_REQ_MULTICORE,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
