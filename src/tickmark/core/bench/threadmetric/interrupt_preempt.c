/* threadmetric.interrupt_preempt — Thread-Metric's interrupt preemption processing: one operation
 * is one software-raised interrupt whose handler gives a semaphore that a thread of higher
 * priority (on this CPU) waits on; the system switches to it on the handler's way out, it counts
 * and waits again, and the raising thread runs on. Thread-Metric's handler resumes a suspended
 * thread: ours gives the semaphore it waits on. The interrupt, and the signal that stands in for
 * it on Linux (by_signal=1 in the instance's info), are threadmetric.interrupt's. Timed: a batch
 * of raises, wake-ups and switches back between two clock reads. Not timed: attaching the handler,
 * starting the thread. The woken thread must have run before the raising thread went on, or the
 * run fails. */
#include "tmx_common.h"

static tmx_chain chain;
static int attached;

static void handler(void) { tmx_event_give(chain.sem[0]); }

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (attached)
        tmx_event_detach();
    attached = 0;
    tmx_chain_stop(&chain);
}

static int setup(tm_ctx *ctx)
{
    int rc = tmx_chain_start(ctx, &chain, 1);
    if (rc != TM_OK)
        return rc;
    if ((rc = tmx_event_attach(ctx, handler)) != TM_OK)
        return rc;
    attached = 1;
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t i;
    for (i = 0; i < iters; i++) {
        uint64_t runs = chain.runs[0];
        tmx_event_raise();
        if (chain.runs[0] != runs + 1) {
            tm_fail(ctx, "the interrupt did not run the waiting thread before the raiser: the handler "
                         "could not give the semaphore, or the system did not switch on its way out");
            return;
        }
    }
}

TM_BENCH(threadmetric_interrupt_preempt) = {
    .name = "threadmetric.interrupt_preempt",
    .summary = "interrupt preemption: a raised interrupt wakes a higher-priority thread, which runs and waits again",
    .unit = "interrupt",
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
