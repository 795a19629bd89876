/* What the wake-up benchmarks share (irq.wake, sched.wake_prio): a thread of the highest
 * priority, on the caller's CPU, that waits on a semaphore and reads the clock as its first act
 * on waking; the caller posts (from an interrupt handler, or itself) and checks that the waiter
 * ran before it went on. Not a benchmark itself. */
#ifndef TICKMARK_WAKEUP_H
#define TICKMARK_WAKEUP_H

#include <stdint.h>

#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

typedef struct wk_waiter {
    tm_os_sem *sem;
    tm_os_thread thread;
    int started, cpu;
    const char *prio_why;        /* why the waiter could not take the highest priority */
    volatile int ready, stop, prio_failed;
    volatile uint32_t wakes;     /* wake-ups the waiter counted */
    volatile uint64_t woke_at;   /* tm_ticks() on its last wake-up */
} wk_waiter;

/* The semaphore (none: skip) and the waiter, waiting: TM_OK or a tm_skip()/tm_fail() code. */
int wk_start(tm_ctx *ctx, wk_waiter *w);
/* Wake the waiter one last time to end it, join it, destroy the semaphore. */
void wk_stop(wk_waiter *w);

#endif
