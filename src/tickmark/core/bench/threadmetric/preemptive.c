/* threadmetric.preemptive — Thread-Metric's preemptive scheduling: five threads of five
 * priorities on one CPU, this one the lowest. Each of the four above waits on a semaphore of its
 * own; we post the first, which preempts us, posts the next, which preempts it, up to the
 * highest; each then counts and waits again, and the CPU falls back down the chain to us.
 * Thread-Metric's threads resume and suspend each other: ours wake and wait (a post and a wait
 * are what every system here has). One operation is one preemption (a post that switches to a
 * higher thread) with the return from it when that thread waits; one iteration is four. Timed: a
 * batch of chains between two clock reads. Not timed: starting and ending the threads. Every
 * thread must have run once per chain, before our post returned, or the run fails. */
#include "tmx_common.h"

static tmx_chain chain;

static int setup(tm_ctx *ctx) { return tmx_chain_start(ctx, &chain, TMX_LEVELS); }

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t i;
    for (i = 0; i < iters; i++) {
        uint64_t top = chain.runs[TMX_LEVELS - 1];
        tm_os_sem_post(chain.sem[0]);
        if (chain.runs[TMX_LEVELS - 1] != top + 1) {
            tm_fail(ctx, "the post did not run the chain of higher threads before the poster (no preemption)");
            return;
        }
    }
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    tmx_chain_stop(&chain);
}

TM_BENCH(threadmetric_preemptive) = {
    .name = "threadmetric.preemptive",
    .summary = "preemptive scheduling: a post that wakes a higher thread, in a chain of five priorities on one CPU",
    .unit = "preemption",
    .ops_per_iter = TMX_LEVELS,
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
