/* irq.* on NuttX, Cortex-A53: the GICv2 software-generated interrupt BM_SOFT_IRQ (NuttX numbers
 * SGIs 0-15 as themselves), raised to this CPU by a write to GICD_SGIR. */
#include "irqline.h"

const char *tm_nx_irqline_get(tm_nx_irqline *line)
{
    unsigned sgi = (unsigned)(TM_BM_SOFT_IRQ);
    if (TM_BM_GIC_DIST == 0 || TM_BM_SOFT_IRQ < 0 || sgi > 15)
        return "no GICv2 or SGI for it (BM_GIC_DIST, BM_SOFT_IRQ in the board description)";
    line->irq = (int)sgi;
    line->raise_reg = (volatile void *)(uintptr_t)(TM_BM_GIC_DIST + 0xF00u);
    line->raise_value = (2u << 24) | sgi; /* to the requesting CPU only */
    return 0;
}
