/* The waiting thread of the wake-up benchmarks (wakeup.h). */
#include "wakeup.h"

#include "tickmark/osal.h"

static void *waiter(void *arg)
{
    wk_waiter *w = arg;
    if (tm_os_cpu_count() > 1)
        tm_os_pin_cpu(w->cpu);
    if (tm_os_set_rt_priority(-1, &w->prio_why))
        w->prio_failed = 1;
    w->ready = 1;
    while (!w->prio_failed) {
        tm_os_sem_wait(w->sem);
        w->woke_at = tm_ticks();
        if (w->stop)
            break;
        w->wakes++;
    }
    return 0;
}

int wk_start(tm_ctx *ctx, wk_waiter *w)
{
    w->sem = tm_os_sem_create(0);
    if (!w->sem)
        return tm_skip(ctx, "the %s port has no semaphores", tm_port_name());
    w->cpu = tm_os_cpu_current();
    if (tm_os_cpu_count() > 1 && tm_os_pin_cpu(w->cpu))
        return tm_skip(ctx, "cannot pin to one CPU: the waiter and the poster must share it");
    if (tm_os_thread_create(&w->thread, waiter, w))
        return tm_fail(ctx, "cannot create the waiting thread");
    w->started = 1;
    while (!w->ready)
        tm_os_yield();
    if (w->prio_failed)
        return tm_skip(ctx, "the waiter cannot take the highest priority: %s", w->prio_why ? w->prio_why : "refused");
    return TM_OK;
}

void wk_stop(wk_waiter *w)
{
    if (w->started) {
        w->stop = 1;
        if (!w->prio_failed)
            tm_os_sem_post(w->sem);
        tm_os_thread_join(w->thread);
    }
    if (w->sem)
        tm_os_sem_destroy(w->sem);
    w->sem = 0;
    w->started = 0;
}
