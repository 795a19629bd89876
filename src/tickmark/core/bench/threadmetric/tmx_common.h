/* What the threadmetric.* benchmarks share (docs/thread-metric.md): a chain of threads at
 * priorities above the caller's, and the event that stands for an interrupt: a software-raised
 * interrupt where the port can handle one (tm_os_irq_attach), else, on a system whose user space
 * takes no interrupts (Linux), a signal the thread sends itself, said in the instance's info
 * (by_signal=1). Not a benchmark itself. */
#ifndef TICKMARK_TMX_COMMON_H
#define TICKMARK_TMX_COMMON_H

#include <stdint.h>

#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

/* Attach handler to the event: TM_OK, or tm_skip() with why neither an interrupt nor a signal
 * can be had. */
int tmx_event_attach(tm_ctx *ctx, void (*handler)(void));
void tmx_event_raise(void);
void tmx_event_detach(void);
/* Give s from the event's handler (an interrupt handler's give, or a plain post in a signal
 * handler, where sem_post is safe). */
int tmx_event_give(tm_os_sem *s);

/* Threads of the preemption tests: thread i waits on sem[i] at priority level -(TMX_LEVELS - i)
 * (tm_os_set_rt_priority: -1 the highest), so each one above the last; on waking it posts
 * sem[i + 1] (the last posts nothing), counts and waits again. */
#define TMX_LEVELS 4
typedef struct tmx_chain {
    tm_os_sem *sem[TMX_LEVELS];
    tm_os_thread thread[TMX_LEVELS];
    int started, cpu;
    const char *prio_why;
    volatile int ready, stop, prio_failed;
    volatile uint64_t runs[TMX_LEVELS];
} tmx_chain;

/* n threads of the chain (1..TMX_LEVELS), waiting: TM_OK or a tm_skip()/tm_fail() code. */
int tmx_chain_start(tm_ctx *ctx, tmx_chain *c, int n);
void tmx_chain_stop(tmx_chain *c);

#endif
