/* irq.return — a software-raised interrupt, from the raise to the interrupted thread running
 * again, through the system's own interrupt path (osal.h: tm_os_irq_attach): the write to the
 * interrupt controller (Cortex-M: the NVIC's set-pending register) and its barrier, the way in,
 * a handler in C that counts it, the way out. On bare metal that is trap.irq with a C handler;
 * on an RTOS the handler sits where its interrupts do. The handler's count is checked against
 * the raises. Timed: one interrupt per iteration of the control loop, the control loop
 * subtracted. */
#include "irq_common.h"
#include "tickmark/osal.h"

static volatile uint32_t taken;
static int attached;

static void return_handler(void) { taken++; }

static int setup(tm_ctx *ctx)
{
    const char *why = tm_os_irq_attach(return_handler);
    if (why)
        return tm_skip(ctx, "%s", why);
    attached = 1;
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    taken = 0;
    tm_os_irq_raise_loop(iters);
    if (taken != (uint32_t)iters)
        tm_fail(ctx, "the handler took %lu interrupts of %lu raised", (unsigned long)taken, (unsigned long)iters);
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (attached)
        tm_os_irq_detach();
    attached = 0;
}

TM_BENCH(irq_return) = {
    .name = "irq.return",
    .summary = "software-raised interrupt, handler in C, back in the interrupted thread",
    .unit = "interrupt",
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
