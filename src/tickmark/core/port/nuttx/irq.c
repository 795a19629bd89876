/* Interrupt to thread (irq.*) on NuttX: the software interrupt of trap.irq (the board's
 * BM_SOFT_IRQ: an NVIC line, a GIC SGI; arch/<arch>/irqline.c says which of NuttX's interrupt
 * numbers it is and which store raises it), handed to the kernel with irq_attach(), so that it
 * comes through NuttX's own interrupt dispatch and leaves through its own return (where a
 * context switch a handler's sem_post asked for happens). In a flat build the core may write the
 * interrupt controller itself: the raise is the CPU's store loop, as on bare metal. */
#include <nuttx/config.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>

#include "irqline.h"
#include "runner.h"
#include "tickmark/osal.h"

static void (*bench_isr)(void);
static tm_nx_irqline line = {.irq = -1};

static int dispatch(int irq, void *context, void *arg)
{
    (void)irq;
    (void)context;
    (void)arg;
    bench_isr();
    return 0;
}

const char *tm_os_irq_attach(void (*isr)(void))
{
    const char *why = tm_nx_irqline_get(&line);
    if (why)
        return why;
    if (tm_arch_trap_call(0, 0) < 0)
        return "no kernel-entry loops for this CPU (arch/<arch>/trap.c)";
    bench_isr = isr;
    if (irq_attach(line.irq, dispatch, NULL) < 0)
        return "irq_attach() refused the interrupt";
    up_enable_irq(line.irq);
    return NULL;
}

void tm_os_irq_raise(void) { tm_arch_trap_store(1, line.raise_reg, line.raise_value); }
void tm_os_irq_raise_loop(uint64_t n) { tm_arch_trap_store(n, line.raise_reg, line.raise_value); }

void tm_os_irq_detach(void)
{
    up_disable_irq(line.irq);
    irq_detach(line.irq);
}
