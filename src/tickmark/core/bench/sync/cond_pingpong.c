/* sync.cond_pingpong — one operation is one round trip between two threads through a mutex,
 * a turn variable and two condition variables: we hand the turn over, signal and wait until
 * it comes back; the partner does the mirror image. cross=0 pins both threads to one CPU,
 * cross=1 to two CPUs. Timed: lock, signal, wait, unlock and the switches/wake-ups. Not timed:
 * thread creation and stop. Each round trip is also timed alone into the histogram. */
#include "../common/twoparty.h"

typedef struct {
    tm_os_mutex m;
    tm_os_cond *to_partner, *to_main;
    tm_os_thread t;
    int cpu, turn; /* turn: 0 = main's, 1 = partner's */
    int stop;
} cp_state;

static cp_state cp;

static void *partner(void *arg)
{
    cp_state *s = arg;
    if (tm_os_pin_cpu(s->cpu) != 0)
        return NULL;
    tm_os_mutex_lock(&s->m);
    for (;;) {
        while (s->turn != 1 && !s->stop)
            tm_os_cond_wait(s->to_partner, &s->m);
        if (s->stop)
            break;
        s->turn = 0;
        tm_os_cond_signal(s->to_main);
    }
    tm_os_mutex_unlock(&s->m);
    return NULL;
}

static int setup(tm_ctx *ctx)
{
    int mine, r;
    if ((r = tp_place(ctx, (int)tm_param(ctx, "cross"), &mine, &cp.cpu)) != TM_OK)
        return r;
    cp.turn = 0;
    cp.stop = 0;
    cp.to_partner = tm_os_cond_create();
    cp.to_main = tm_os_cond_create();
    if (!cp.to_partner || !cp.to_main) {
        tm_os_cond_destroy(cp.to_partner);
        tm_os_cond_destroy(cp.to_main);
        return tm_skip(ctx, "the %s port has no condition variables", tm_port_name());
    }
    if (tm_os_mutex_init(&cp.m) != 0) {
        tm_os_cond_destroy(cp.to_partner);
        tm_os_cond_destroy(cp.to_main);
        return tm_fail(ctx, "mutex init failed");
    }
    if (tm_os_thread_create(&cp.t, partner, &cp) != 0) {
        tm_os_cond_destroy(cp.to_partner);
        tm_os_cond_destroy(cp.to_main);
        tm_os_mutex_destroy(&cp.m);
        return tm_fail(ctx, "thread creation failed");
    }
    ctx->user = &cp;
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t i;
    tm_os_mutex_lock(&cp.m);
    for (i = 0; i < iters; i++) {
        uint64_t t0 = tm_ticks();
        cp.turn = 1;
        tm_os_cond_signal(cp.to_partner);
        while (cp.turn != 0)
            tm_os_cond_wait(cp.to_main, &cp.m);
        tm_hist_add(ctx, tm_ticks_to_ns(tm_ticks() - t0));
    }
    tm_os_mutex_unlock(&cp.m);
}

static void teardown(tm_ctx *ctx)
{
    if (ctx->user) {
        tm_os_mutex_lock(&cp.m);
        cp.stop = 1;
        tm_os_cond_signal(cp.to_partner);
        tm_os_mutex_unlock(&cp.m);
        tm_os_thread_join(cp.t);
        tm_os_cond_destroy(cp.to_partner);
        tm_os_cond_destroy(cp.to_main);
        tm_os_mutex_destroy(&cp.m);
    }
    ctx->user = NULL;
}

TM_BENCH(sync_cond_pingpong) = {
    .name = "sync.cond_pingpong",
    .summary = "round trip between two threads by condition variable signal/wait",
    .unit = "round trip",
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .params = {TP_CROSS_PARAM},
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
