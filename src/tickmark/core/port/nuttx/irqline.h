/* The software interrupt of irq.* on NuttX (port/nuttx/irq.c): its number in NuttX's numbering
 * and the 32-bit store that raises it, per CPU (arch/<arch>/irqline.c). */
#ifndef TM_NX_IRQLINE_H
#define TM_NX_IRQLINE_H

#include <stdint.h>

typedef struct tm_nx_irqline {
    int irq;                  /* for irq_attach(), up_enable_irq() */
    volatile void *raise_reg; /* this store raises it */
    uint32_t raise_value;
} tm_nx_irqline;

/* Fill in the line: NULL, or why the board has none. */
const char *tm_nx_irqline_get(tm_nx_irqline *line);

#endif
