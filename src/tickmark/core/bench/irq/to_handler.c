/* irq.entry — from a software-raised interrupt to the first statement of its handler, through
 * the system's own interrupt path (osal.h: tm_os_irq_attach): a write to the interrupt
 * controller (Cortex-M: the NVIC's set-pending register, as trap.irq raises it), the way in
 * (bare metal: the CPU's vector; an RTOS: whatever it runs before a handler), the handler's
 * first act, which reads the clock. The thread reads the clock just before it raises; the
 * sub-metric "entry" is the time between the two reads, the cost of two back-to-back clock
 * reads taken out. The handler's count is checked against the raises.
 * Timed: one interrupt per iteration, round trip included (the headline); "entry" is the
 * raise to the handler. */
#include "irq_common.h"
#include "tickmark/osal.h"

static volatile uint64_t handler_stamp;
static volatile uint32_t taken;
static int attached;
static uint64_t pairs;

static void entry_handler(void)
{
    handler_stamp = tm_ticks();
    taken++;
}

static int setup(tm_ctx *ctx)
{
    const char *why = tm_os_irq_attach(entry_handler);
    if (why)
        return tm_skip(ctx, "%s", why);
    attached = 1;
    pairs = irq_clock_pairs_ticks();
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    irq_time_paths(ctx, iters, tm_os_irq_raise, &taken, &handler_stamp, pairs,
                   "the handler did not run before the raising thread went on");
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (attached)
        tm_os_irq_detach();
    attached = 0;
}

TM_BENCH(irq_entry) = {
    .name = "irq.entry",
    .summary = "software-raised interrupt to the first statement of its handler (sub-metric entry)",
    .unit = "interrupt",
    .subs = "entry",
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
