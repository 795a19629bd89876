/* Interrupt to thread (irq.*) on a POSIX system: none. User space cannot raise an interrupt or
 * install a handler for one; every irq.* benchmark skips, naming the port (NuttX keeps this
 * file: its irq_attach() is a kernel call the core does not make yet). */
#include <stdio.h>

#include "tickmark/osal.h"

const char *tm_os_irq_attach(void (*isr)(void))
{
    static char why[112];
    (void)isr;
    snprintf(why, sizeof why, "user space on %s cannot raise an interrupt or handle one (tm_os_irq_attach)",
             tm_port_name());
    return why;
}

void tm_os_irq_raise(void) {}
void tm_os_irq_raise_loop(uint64_t n) { (void)n; }
void tm_os_irq_detach(void) {}
