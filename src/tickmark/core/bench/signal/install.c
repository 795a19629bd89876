/* signal.install — one operation is one sigaction() call installing a handler for SIGUSR1
 * (lmbench lat_sig install). Not timed: restoring the default action in teardown. */
#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

static void handler(int sig) { (void)sig; }

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t i;
    for (i = 0; i < iters; i++)
        if (tm_os_sig_install(TM_SIG_USR1, handler) != 0) {
            tm_fail(ctx, "sigaction failed");
            return;
        }
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    tm_os_sig_default(TM_SIG_USR1);
}

TM_BENCH(signal_install) = {
    .name = "signal.install",
    .summary = "install a signal handler (sigaction)",
    .unit = "call",
    .requires = TM_REQ_SIGNALS,
    .run = run,
    .teardown = teardown,
};
