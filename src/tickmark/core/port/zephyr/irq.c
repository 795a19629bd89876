/* Interrupt to thread (irq.*) on Zephyr: the software interrupt of arch/<arch>/irq_line.c (an
 * NVIC line; on the Cortex-A53's GICv3 a spare SPI), connected with the kernel's own
 * irq_connect_dynamic() and irq_enable() (CONFIG_DYNAMIC_INTERRUPTS in app/prj.conf). Dynamic,
 * not IRQ_CONNECT: the handler is the benchmark's, chosen when it starts, and IRQ_CONNECT binds
 * one function to the line for the whole image at build time. The interrupt comes through
 * Zephyr's own entry (Cortex-M: _isr_wrapper and the software table; AArch64: the IRQ vector, the
 * GIC's acknowledge and the table) and leaves through its own exit, where the switch to a thread
 * the handler readied happens (Cortex-M: PendSV, pended on the way out; AArch64: the exit of the
 * IRQ vector). The kernel and the core share one address space and run privileged (no
 * CONFIG_USERSPACE), so the raise is the CPU's store loop (tm_arch_trap_store), as on bare metal
 * and NuttX. Zephyr 2.7 has no call that disconnects a handler: detach disables the line, and
 * the next attach connects its own handler over the old one. */
#include <kernel.h>
#include <irq.h>

#include "irq_line.h"
#include "runner.h"
#include "tickmark/osal.h"

static void (*bench_isr)(void);
static tm_zephyr_irq_line line;

static void dispatch(const void *arg)
{
    (void)arg;
    bench_isr();
}

const char *tm_os_irq_attach(void (*isr)(void))
{
    const char *why = tm_zephyr_irq_line_get(&line);
    if (why)
        return why;
    if (tm_arch_trap_call(0, 0) < 0)
        return "no kernel-entry loops for this CPU (arch/<arch>/trap.c)";
    bench_isr = isr;
    if (irq_connect_dynamic(line.irq, line.priority, dispatch, NULL, line.flags) < 0)
        return "irq_connect_dynamic() refused the interrupt";
    irq_enable(line.irq);
    return NULL;
}

void tm_os_irq_raise(void) { tm_arch_trap_store(1, line.raise_reg, line.raise_value); }
void tm_os_irq_raise_loop(uint64_t n) { tm_arch_trap_store(n, line.raise_reg, line.raise_value); }
void tm_os_irq_detach(void) { irq_disable(line.irq); }
