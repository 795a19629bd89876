/* threadmetric.interrupt — Thread-Metric's interrupt processing: one operation is one software-
 * raised interrupt whose handler gives a semaphore, and the raising thread's take of it (which
 * finds it given: no switch). The interrupt is trap.irq's (docs/interrupts.md) through the
 * system's own interrupt path; on a system whose user space takes no interrupts (Linux) a signal
 * the thread sends itself stands in for it, and the instance's info says by_signal=1. Timed: a
 * batch of raises, handlers and takes between two clock reads. Not timed: attaching the handler.
 * The handler must have run once per raise, or the run fails. */
#include "tmx_common.h"

static tm_os_sem *sem;
static volatile uint64_t handled;
static int attached;

static void handler(void)
{
    handled++;
    tmx_event_give(sem);
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (attached)
        tmx_event_detach();
    attached = 0;
    if (sem)
        tm_os_sem_destroy(sem);
    sem = 0;
}

static int setup(tm_ctx *ctx)
{
    int rc;
    if (!(sem = tm_os_sem_create(0)))
        return tm_skip(ctx, "the %s port has no semaphores", tm_port_name());
    if ((rc = tmx_event_attach(ctx, handler)) != TM_OK)
        return rc;
    attached = 1;
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t before = handled, i;
    for (i = 0; i < iters; i++) {
        tmx_event_raise();
        tm_os_sem_wait(sem);
    }
    if (handled - before != iters)
        tm_fail(ctx, "%llu handlers ran for %llu raises", (unsigned long long)(handled - before),
                (unsigned long long)iters);
}

TM_BENCH(threadmetric_interrupt) = {
    .name = "threadmetric.interrupt",
    .summary = "interrupt processing: a raised interrupt gives a semaphore, the raising thread takes it",
    .unit = "interrupt",
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
