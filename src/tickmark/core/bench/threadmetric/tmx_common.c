/* The shared parts of the threadmetric.* benchmarks (tmx_common.h). */
#include "tmx_common.h"

#include "tickmark/osal.h"

static void (*event_handler)(void);
static int by_signal, attached;

static void on_signal(int sig)
{
    (void)sig;
    event_handler();
}

int tmx_event_attach(tm_ctx *ctx, void (*handler)(void))
{
    const char *why = tm_os_irq_attach(handler);
    event_handler = handler;
    by_signal = 0;
    if (!why) {
        attached = 1;
        return TM_OK;
    }
    if (!(tm_port_caps() & TM_REQ_SIGNALS) || tm_os_sig_install(TM_SIG_USR1, on_signal) != 0)
        return tm_skip(ctx, "%s, and no signal stands in for it", why);
    by_signal = attached = 1;
    tm_info(ctx, "by_signal", 1);
    return TM_OK;
}

void tmx_event_raise(void)
{
    if (by_signal)
        tm_os_sig_raise(TM_SIG_USR1);
    else
        tm_os_irq_raise();
}

void tmx_event_detach(void)
{
    if (attached && by_signal)
        tm_os_sig_default(TM_SIG_USR1);
    else if (attached)
        tm_os_irq_detach();
    attached = by_signal = 0;
}

int tmx_event_give(tm_os_sem *s) { return by_signal ? tm_os_sem_post(s) : tm_os_sem_post_from_isr(s); }

typedef struct {
    tmx_chain *c;
    int i, n;
} link_arg;

static link_arg links[TMX_LEVELS];

static void *link_thread(void *arg)
{
    link_arg *a = arg;
    tmx_chain *c = a->c;
    const char *why = 0;
    if (tm_os_cpu_count() > 1)
        tm_os_pin_cpu(c->cpu);
    if (tm_os_set_rt_priority(-(TMX_LEVELS - a->i), &why)) {
        c->prio_why = why;
        c->prio_failed = 1;
    }
    c->ready++;
    while (!c->prio_failed) {
        tm_os_sem_wait(c->sem[a->i]);
        if (c->stop)
            break;
        if (a->i + 1 < a->n)
            tm_os_sem_post(c->sem[a->i + 1]);
        c->runs[a->i]++;
    }
    return 0;
}

int tmx_chain_start(tm_ctx *ctx, tmx_chain *c, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!(c->sem[i] = tm_os_sem_create(0))) {
            tmx_chain_stop(c);
            return tm_skip(ctx, "the %s port has no semaphores", tm_port_name());
        }
    c->cpu = tm_os_cpu_current();
    if (tm_os_cpu_count() > 1 && tm_os_pin_cpu(c->cpu)) {
        tmx_chain_stop(c);
        return tm_skip(ctx, "cannot pin to one CPU: the threads must share it");
    }
    for (i = 0; i < n; i++) {
        links[i] = (link_arg){c, i, n};
        if (tm_os_thread_create(&c->thread[i], link_thread, &links[i])) {
            tmx_chain_stop(c);
            return tm_fail(ctx, "cannot create thread %d of the chain", i + 1);
        }
        c->started = i + 1;
        while (c->ready < i + 1) /* one at a time: each counts itself in, then waits */
            tm_os_yield();
    }
    if (c->prio_failed)
        return tm_skip(ctx, "a thread cannot take a priority above the caller's: %s",
                       c->prio_why ? c->prio_why : "refused");
    return TM_OK;
}

void tmx_chain_stop(tmx_chain *c)
{
    int i;
    c->stop = 1;
    for (i = 0; i < c->started; i++) {
        tm_os_sem_post(c->sem[i]); /* harmless to a thread that has ended */
        tm_os_thread_join(c->thread[i]);
    }
    for (i = 0; i < TMX_LEVELS; i++) {
        if (c->sem[i])
            tm_os_sem_destroy(c->sem[i]);
        c->sem[i] = 0;
    }
    c->started = 0;
}
