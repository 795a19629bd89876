/* irq.wake — from a software-raised interrupt to a waiting thread of higher priority running:
 * the handler gives a semaphore (osal_prim.h: tm_os_sem_post_from_isr; FreeRTOS:
 * xSemaphoreGiveFromISR and portYIELD_FROM_ISR; NuttX: sem_post), the system switches on the
 * handler's way out to the thread that waited on it (at the highest priority, on this CPU),
 * whose first act on waking reads the clock. The raising thread read the clock just before it
 * raised; the sub-metric "wake" is the time between the two reads, the cost of two back-to-back
 * clock reads taken out. Each raise must have woken the waiter before the raising thread runs
 * again. Timed: one interrupt and wake-up per iteration, the waiter's return to waiting and the
 * switch back included (the headline); "wake" is the raise to the woken thread. */
#include "../common/wakeup.h"
#include "irq_common.h"
#include "tickmark/osal.h"

static wk_waiter w;
static int attached;
static uint64_t pairs;

static void wake_handler(void)
{
    tm_os_sem_post_from_isr(w.sem); /* a give that fails wakes no one: run() says so */
}

static int setup(tm_ctx *ctx)
{
    int rc;
    const char *why = tm_os_irq_attach(wake_handler);
    if (why)
        return tm_skip(ctx, "%s", why);
    attached = 1;
    rc = wk_start(ctx, &w);
    if (rc != TM_OK)
        return rc;
    pairs = irq_clock_pairs_ticks();
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    irq_time_paths(ctx, iters, tm_os_irq_raise, &w.wakes, &w.woke_at, pairs,
                   "the interrupt did not run the waiting thread before the raiser: the handler "
                   "could not give the semaphore, or the system did not switch on its way out");
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (attached)
        tm_os_irq_detach();
    attached = 0;
    wk_stop(&w);
}

TM_BENCH(irq_wake) = {
    .name = "irq.wake",
    .summary = "software-raised interrupt gives a semaphore: to the waiting higher-priority thread (sub-metric wake)",
    .unit = "wake-up",
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING,
    .subs = "wake",
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
