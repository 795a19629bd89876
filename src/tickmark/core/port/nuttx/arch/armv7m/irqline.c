/* irq.* on NuttX, Cortex-M: external interrupt BM_SOFT_IRQ of the NVIC, NuttX's interrupt
 * NVIC_IRQ_FIRST (16) + BM_SOFT_IRQ, raised by its set-pending bit. */
#include "irqline.h"

#define NVIC_ISPR(n) (0xE000E200u + 4u * (n))
#define FIRST_EXTERNAL 16

const char *tm_nx_irqline_get(tm_nx_irqline *line)
{
    unsigned n = (unsigned)(TM_BM_SOFT_IRQ);
    if (TM_BM_SOFT_IRQ < 0)
        return "no interrupt line for it (BM_SOFT_IRQ in the board description)";
    line->irq = FIRST_EXTERNAL + (int)n;
    line->raise_reg = (volatile void *)(uintptr_t)NVIC_ISPR(n / 32u);
    line->raise_value = 1u << (n % 32u);
    return 0;
}
