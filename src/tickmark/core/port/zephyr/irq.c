/* Interrupt to thread (irq.*) on Zephyr: not yet. The core runs in Zephyr's kernel mode, but its
 * POSIX layer has no call to attach a handler, and the port does not connect one with the
 * kernel's own API (irq_connect_dynamic, which needs CONFIG_DYNAMIC_INTERRUPTS): every irq.*
 * benchmark skips, saying so. */
#include "tickmark/osal.h"

const char *tm_os_irq_attach(void (*isr)(void))
{
    (void)isr;
    return "the zephyr port does not connect a handler through Zephyr's interrupt API yet "
           "(irq_connect_dynamic; tm_os_irq_attach)";
}

void tm_os_irq_raise(void) {}
void tm_os_irq_raise_loop(uint64_t n) { (void)n; }
void tm_os_irq_detach(void) {}
