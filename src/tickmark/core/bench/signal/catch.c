/* signal.catch — one operation is sending SIGUSR1 to this process with kill() and running
 * its (empty, counting) handler, including the kernel's signal frame set-up and sigreturn
 * (lmbench lat_sig catch). Not timed: installing the handler (setup). The handler's count
 * must equal the signals sent, or the run fails. */
#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

static volatile unsigned long caught;
static tm_os_pid self;

static void handler(int sig)
{
    (void)sig;
    caught++;
}

static int setup(tm_ctx *ctx)
{
    self = tm_os_getpid();
    if (tm_os_sig_install(TM_SIG_USR1, handler) != 0)
        return tm_fail(ctx, "sigaction failed");
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    unsigned long before = caught;
    uint64_t i;
    for (i = 0; i < iters; i++)
        tm_os_sig_send(self, TM_SIG_USR1);
    if (caught - before != (unsigned long)iters)
        tm_fail(ctx, "sent %llu signals, caught %lu", (unsigned long long)iters, caught - before);
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    tm_os_sig_default(TM_SIG_USR1);
}

TM_BENCH(signal_catch) = {
    .name = "signal.catch",
    .summary = "send a signal to self and catch it (kill + handler + sigreturn)",
    .unit = "signal",
    .requires = TM_REQ_SIGNALS,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
