/* sync.spin — one operation is one uncontended spin lock + unlock (pthread_spin on POSIX),
 * for reference beside sync.mutex. The body is unrolled 8 times (run_x2: 16 times) so the
 * runner can time it differentially; nothing else is timed. */
#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

static tm_os_spin *sl;

static int setup(tm_ctx *ctx)
{
    sl = tm_os_spin_create();
    if (!sl)
        return tm_skip(ctx, "the %s port has no spin locks", tm_port_name());
    ctx->user = sl;
    return TM_OK;
}

#define PAIR(bad) bad |= tm_os_spin_lock(sl) | tm_os_spin_unlock(sl)
#define PAIR8(bad) PAIR(bad); PAIR(bad); PAIR(bad); PAIR(bad); PAIR(bad); PAIR(bad); PAIR(bad); PAIR(bad)

static void run(tm_ctx *ctx, uint64_t iters)
{
    int bad = 0;
    uint64_t i;
    for (i = 0; i < iters; i++) {
        PAIR8(bad);
    }
    if (bad)
        tm_fail(ctx, "spin lock returned an error");
}

static void run_x2(tm_ctx *ctx, uint64_t iters)
{
    int bad = 0;
    uint64_t i;
    for (i = 0; i < iters; i++) {
        PAIR8(bad);
        PAIR8(bad);
    }
    if (bad)
        tm_fail(ctx, "spin lock returned an error");
}

static void teardown(tm_ctx *ctx)
{
    tm_os_spin_destroy(sl);
    sl = NULL;
    ctx->user = NULL;
}

TM_BENCH(sync_spin) = {
    .name = "sync.spin",
    .summary = "uncontended spin lock + unlock, for reference",
    .unit = "lock+unlock",
    .ops_per_iter = 8,
    .requires = TM_REQ_THREADS,
    .setup = setup,
    .run = run,
    .run_x2 = run_x2,
    .teardown = teardown,
};
