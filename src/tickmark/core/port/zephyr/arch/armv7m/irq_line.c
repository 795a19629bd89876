/* irq.* on Zephyr, Cortex-M: external interrupt TM_ZEPHYR_SOFT_IRQ of the NVIC (the board's
 * BM_SOFT_IRQ, a line nothing else uses: the one bare metal and NuttX raise; Zephyr numbers the
 * external interrupts from 0), raised by its set-pending bit (NVIC_ISPR). Priority 0: the highest
 * Zephyr gives an interrupt whose handler may call the kernel (it adds the levels it keeps for
 * itself), the level of the console's UART and of SysTick. */
#include <kernel.h>
#include <arch/arm/aarch32/cortex_m/cmsis.h>

#include "irq_line.h"

const char *tm_zephyr_irq_line_get(tm_zephyr_irq_line *line)
{
    unsigned n = (unsigned)(TM_ZEPHYR_SOFT_IRQ);
    if (TM_ZEPHYR_SOFT_IRQ < 0 || n >= CONFIG_NUM_IRQS)
        return "no interrupt line for it (BM_SOFT_IRQ in the board description, below Zephyr's CONFIG_NUM_IRQS)";
    line->irq = n;
    line->priority = 0;
    line->flags = 0;
    line->raise_reg = &NVIC->ISPR[n / 32u];
    line->raise_value = 1u << (n % 32u);
    return 0;
}
