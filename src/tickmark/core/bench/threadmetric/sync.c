/* threadmetric.sync — Thread-Metric's synchronization processing: one operation is one take
 * (wait) of a semaphore that is free and one give (post) of it, by one thread: neither call
 * blocks or switches. Timed: the takes and gives. Not timed: creating the semaphore. */
#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

static tm_os_sem *sem;

static int setup(tm_ctx *ctx)
{
    if (!(sem = tm_os_sem_create(1)))
        return tm_skip(ctx, "the %s port has no semaphores", tm_port_name());
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t i;
    for (i = 0; i < iters; i++)
        if (tm_os_sem_wait(sem) != 0 || tm_os_sem_post(sem) != 0) {
            tm_fail(ctx, "a semaphore call failed");
            return;
        }
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (sem)
        tm_os_sem_destroy(sem);
    sem = 0;
}

TM_BENCH(threadmetric_sync) = {
    .name = "threadmetric.sync",
    .summary = "synchronization processing: a take and a give of a free semaphore by one thread",
    .unit = "take/give",
    .requires = TM_REQ_THREADS,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
