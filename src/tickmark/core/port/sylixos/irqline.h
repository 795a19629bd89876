/* The software interrupt of trap.irq and irq.* on SylixOS (port/sylixos/irq.c, trap.c): the
 * board's BM_SOFT_IRQ, a GIC software-generated interrupt to this CPU, connected to a handler
 * through the kernel's own interrupt API, raised by the CPU's store loop. */
#ifndef TM_SY_IRQLINE_H
#define TM_SY_IRQLINE_H

#include <stdint.h>

/* Connect isr (called from SylixOS's interrupt dispatch) to the interrupt and enable it: NULL,
 * or why not. The store that raises it: *reg = value. */
const char *tm_sy_irq_connect(void (*isr)(void), volatile void **reg, uint32_t *value);
void tm_sy_irq_disconnect(void);

#endif
