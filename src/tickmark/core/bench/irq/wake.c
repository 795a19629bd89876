/* irq.wake — from a software-raised interrupt to a waiting thread of higher priority running:
 * the handler gives a semaphore (osal_prim.h: tm_os_sem_post_from_isr; FreeRTOS:
 * xSemaphoreGiveFromISR and portYIELD_FROM_ISR), the system switches on the handler's way out to
 * the thread that waited on it (at the highest priority), whose first act on waking reads the
 * clock. The raising thread read the clock just before it raised; the sub-metric "wake" is the
 * time between the two reads, the cost of two back-to-back clock reads taken out. The waiter
 * counts its wake-ups; each raise must have woken it before the raising thread runs again.
 * Timed: one interrupt and wake-up per iteration, the waiter's return to waiting and the switch
 * back included (the headline); "wake" is the raise to the woken thread. */
#include "irq_common.h"
#include "tickmark/osal.h"
#include "tickmark/osal_prim.h"

struct wake {
    tm_os_sem *sem;
    tm_os_thread waiter;
    int attached, started;
    volatile int ready, stop, post_failed;
    volatile uint32_t wakes;
    volatile uint64_t woke_at;
    uint64_t pairs;
};

static struct wake w;

static void wake_handler(void)
{
    if (tm_os_sem_post_from_isr(w.sem))
        w.post_failed = 1;
}

static void *waiter(void *arg)
{
    const char *why = 0;
    (void)arg;
    tm_os_set_rt_priority(0, &why);
    w.ready = 1;
    for (;;) {
        tm_os_sem_wait(w.sem);
        w.woke_at = tm_ticks();
        if (w.stop)
            break;
        w.wakes++;
    }
    return 0;
}

static int setup(tm_ctx *ctx)
{
    const char *why;
    w = (struct wake){0};
    w.sem = tm_os_sem_create(0);
    if (!w.sem)
        return tm_skip(ctx, "the %s port has no semaphores", tm_port_name());
    why = tm_os_irq_attach(wake_handler);
    if (why)
        return tm_skip(ctx, "%s", why);
    w.attached = 1;
    if (tm_os_thread_create(&w.waiter, waiter, 0))
        return tm_fail(ctx, "cannot create the waiting thread");
    w.started = 1;
    while (!w.ready)
        tm_os_yield();
    w.pairs = irq_clock_pairs_ticks();
    ctx->user = &w;
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t sum = 0, i;
    for (i = 0; i < iters; i++) {
        uint32_t before = w.wakes;
        uint64_t t0 = tm_ticks();
        tm_os_irq_raise();
        if (w.wakes != before + 1u) {
            tm_fail(ctx, w.post_failed ? "the port cannot give a semaphore from an interrupt handler"
                                       : "the interrupt did not run the waiting thread before the raiser");
            return;
        }
        sum += w.woke_at - t0;
    }
    irq_sub_add_path(ctx, 0, sum, iters, w.pairs);
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (w.started) {
        w.stop = 1;
        tm_os_sem_post(w.sem);
        tm_os_thread_join(w.waiter);
    }
    if (w.attached)
        tm_os_irq_detach();
    if (w.sem)
        tm_os_sem_destroy(w.sem);
    w = (struct wake){0};
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
