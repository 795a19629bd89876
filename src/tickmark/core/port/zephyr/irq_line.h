/* The software interrupt of irq.* on Zephyr (port/zephyr/irq.c): its number in Zephyr's
 * numbering, the priority and flags irq_connect_dynamic() takes for it, and the 32-bit store that
 * raises it, per CPU (arch/<arch>/irq_line.c). */
#ifndef TM_ZEPHYR_IRQ_LINE_H
#define TM_ZEPHYR_IRQ_LINE_H

#include <stdint.h>

typedef struct tm_zephyr_irq_line {
    unsigned irq;             /* for irq_connect_dynamic(), irq_enable(), irq_disable() */
    unsigned priority;        /* as irq_connect_dynamic() takes it */
    uint32_t flags;           /* idem */
    volatile void *raise_reg; /* this store raises it */
    uint32_t raise_value;
} tm_zephyr_irq_line;

/* Fill in the line: NULL, or why the board has none. */
const char *tm_zephyr_irq_line_get(tm_zephyr_irq_line *line);

#endif
