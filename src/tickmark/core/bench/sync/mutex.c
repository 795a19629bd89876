/* sync.mutex — one operation is one uncontended lock and one unlock of a mutex (on
 * pthreads the futex fast path: no system call). Method of the RTOS-vs-Linux study: each
 * iteration locks 64 different mutexes one after the other, then unlocks the 64; the two
 * phases are timed apart (tm_ticks) into the sub-metrics "lock" and "unlock" (ns per
 * operation each; three clock reads per 128 calls). Not timed: mutex initialisation. Cold
 * (sub-metric "cold"): one lock and unlock of the first mutex, alone, after a cache flush. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

#define NMUTEX 64

static tm_os_mutex mx[NMUTEX];
static int inited;

static int setup(tm_ctx *ctx)
{
    for (inited = 0; inited < NMUTEX; inited++)
        if (tm_os_mutex_init(&mx[inited]) != 0)
            return tm_fail(ctx, "mutex init failed");
    ctx->user = mx;
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t lock = 0, unlock = 0, i;
    int k, bad = 0;
    for (i = 0; i < iters; i++) {
        uint64_t t0 = tm_ticks(), t1, t2;
        for (k = 0; k < NMUTEX; k++)
            bad |= tm_os_mutex_lock(&mx[k]);
        t1 = tm_ticks();
        for (k = 0; k < NMUTEX; k++)
            bad |= tm_os_mutex_unlock(&mx[k]);
        t2 = tm_ticks();
        lock += t1 - t0;
        unlock += t2 - t1;
    }
    if (bad)
        tm_fail(ctx, "mutex lock or unlock returned an error");
    tm_sub_add(ctx, 0, tm_ticks_to_ns(lock));
    tm_sub_add(ctx, 1, tm_ticks_to_ns(unlock));
}

static void cold(tm_ctx *ctx)
{
    if (tm_os_mutex_lock(&mx[0]) != 0 || tm_os_mutex_unlock(&mx[0]) != 0)
        tm_fail(ctx, "mutex lock or unlock returned an error");
}

static void teardown(tm_ctx *ctx)
{
    while (inited > 0)
        tm_os_mutex_destroy(&mx[--inited]);
    ctx->user = NULL;
}

TM_BENCH(sync_mutex) = {
    .name = "sync.mutex",
    .summary = "uncontended mutex lock + unlock (subs: lock, unlock separately)",
    .unit = "lock+unlock",
    .ops_per_iter = NMUTEX,
    .requires = TM_REQ_THREADS,
    .subs = "lock,unlock",
    .setup = setup,
    .run = run,
    .teardown = teardown,
    .cold = cold,
};
