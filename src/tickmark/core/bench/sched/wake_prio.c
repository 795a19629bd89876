/* sched.wake_prio — from a thread's semaphore post to a waiting thread of higher priority
 * running, on one CPU: the thread that reads the clock and posts runs at its normal priority,
 * the waiter at the highest (Linux: SCHED_FIFO; an RTOS: its highest task priority), pinned to
 * the same CPU, so the post preempts the poster; the waiter's first act on waking reads the
 * clock. Not an interrupt: on Linux, where user space takes none, this is the wake-up a user can
 * measure beside irq.wake on an RTOS. The sub-metric "wake" is the post to the woken thread, the
 * cost of two back-to-back clock reads taken out; each post must have run the waiter before the
 * poster goes on. Timed: one post and wake-up per iteration, the waiter's return to waiting and
 * the switch back included (the headline); "wake" is the post to the woken thread. */
#include "../common/wakeup.h"
#include "../irq/irq_common.h"
#include "tickmark/osal.h"

static wk_waiter w;
static uint64_t pairs;

static int setup(tm_ctx *ctx)
{
    int rc = wk_start(ctx, &w);
    if (rc != TM_OK)
        return rc;
    pairs = irq_clock_pairs_ticks();
    return TM_OK;
}

static void post(void) { tm_os_sem_post(w.sem); }

static void run(tm_ctx *ctx, uint64_t iters)
{
    irq_time_paths(ctx, iters, post, &w.wakes, &w.woke_at, pairs,
                   "the post did not run the waiting thread before the poster (no preemption)");
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    wk_stop(&w);
}

TM_BENCH(sched_wake_prio) = {
    .name = "sched.wake_prio",
    .summary = "a thread's semaphore post to a waiting higher-priority thread, one CPU (sub-metric wake)",
    .unit = "wake-up",
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .subs = "wake",
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
