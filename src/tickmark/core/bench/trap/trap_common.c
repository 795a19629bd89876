/* The set-up, body and tear-down the trap.* benchmarks share: the port installs the handler of
 * one kind of kernel entry, makes the entries, and puts things back (osal.h). */
#include "trap_common.h"

#include "tickmark/osal.h"

static const int kinds[] = {TM_TRAP_CALL, TM_TRAP_ABORT, TM_TRAP_UNDEF, TM_TRAP_IRQ};

int tm_trap_setup(tm_ctx *ctx, int kind)
{
    const char *why = tm_os_trap_open(kind);
    if (why)
        return tm_skip(ctx, "%s", why);
    ctx->user = (void *)&kinds[kind];
    return TM_OK;
}

void tm_trap_run(tm_ctx *ctx, uint64_t iters)
{
    const char *bad = tm_os_trap_run(*(const int *)ctx->user, iters);
    if (bad)
        tm_fail(ctx, "%s", bad);
}

void tm_trap_teardown(tm_ctx *ctx)
{
    if (ctx->user)
        tm_os_trap_close(*(const int *)ctx->user);
}
