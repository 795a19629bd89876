/* thread.create_join — one operation is creating one thread (default attributes) whose body
 * returns at once, and joining it. Method of the RTOS-vs-Linux study: each iteration creates
 * 16 threads, then joins the 16; the create phase and the join phase are timed apart into the
 * sub-metrics "create" and "join" (ns per thread). The created threads run, on whatever CPU
 * the OS gives them, while we go on creating; their run time lands in whichever phase it
 * overlaps. Not timed: nothing is set up beforehand. Cold (sub-metric "cold"): one thread
 * created and joined, alone, after a cache flush. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

#define NTHREADS 16

static volatile unsigned ran; /* 32 bits: a native atomic everywhere */

static void *body(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
    return NULL;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    tm_os_thread t[NTHREADS];
    uint64_t create = 0, join = 0, i;
    unsigned before = ran;
    int k, n;
    for (i = 0; i < iters; i++) {
        uint64_t t0 = tm_ticks(), t1, t2;
        for (n = 0; n < NTHREADS; n++)
            if (tm_os_thread_create(&t[n], body, NULL) != 0)
                break;
        t1 = tm_ticks();
        for (k = 0; k < n; k++)
            tm_os_thread_join(t[k]);
        t2 = tm_ticks();
        create += t1 - t0;
        join += t2 - t1;
        if (n < NTHREADS) {
            tm_fail(ctx, "thread creation failed after %d threads", n);
            return;
        }
    }
    if (ran - before != (unsigned)(iters * NTHREADS))
        tm_fail(ctx, "not every created thread ran");
    tm_sub_add(ctx, 0, tm_ticks_to_ns(create));
    tm_sub_add(ctx, 1, tm_ticks_to_ns(join));
}

static void cold(tm_ctx *ctx)
{
    tm_os_thread t;
    if (tm_os_thread_create(&t, body, NULL) != 0) {
        tm_fail(ctx, "thread creation failed");
        return;
    }
    tm_os_thread_join(t);
}

TM_BENCH(thread_create_join) = {
    .name = "thread.create_join",
    .summary = "create a thread and join it (subs: create, join separately)",
    .unit = "thread",
    .ops_per_iter = NTHREADS,
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .subs = "create,join",
    .run = run,
    .cold = cold,
};
