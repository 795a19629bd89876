/* irq.* on Zephyr, Cortex-A53 (qemu_cortex_a53): this board's GIC is a GICv3 (QEMU's
 * gic-version=3, Zephyr's CONFIG_GIC_V3) with affinity routing, which has no GICD_SGIR, the
 * distributor's SGI register that NuttX and bare metal write on the GICv2; an SGI would be a
 * system-register write (ICC_SGI1R_EL1), not the store loop. The interrupt is the shared
 * peripheral interrupt TM_ZEPHYR_SOFT_IRQ (ZEPHYR_SOFT_IRQ in the board description; Zephyr
 * numbers interrupts by the GIC's INTID, SPIs from 32), wired to no device of the machine, raised
 * by its bit in the distributor's set-pending register GICD_ISPENDR<n>. It is made edge-triggered,
 * so that its pending state ends when the CPU acknowledges it; Zephyr's GIC driver leaves its
 * routing as reset left it (to CPU 0, the only one). Priority: Zephyr's default for a device
 * (IRQ_DEFAULT_PRIORITY), the timer's and the UART's. */
#include <kernel.h>
#include <drivers/interrupt_controller/gic.h>
#include <dt-bindings/interrupt-controller/arm-gic.h>

#include "irq_line.h"

#define FIRST_SPI 32

const char *tm_zephyr_irq_line_get(tm_zephyr_irq_line *line)
{
    unsigned n = (unsigned)(TM_ZEPHYR_SOFT_IRQ);
    if (TM_ZEPHYR_SOFT_IRQ < FIRST_SPI || n >= CONFIG_NUM_IRQS)
        return "no shared peripheral interrupt for it (ZEPHYR_SOFT_IRQ in the board description: "
               "an SPI below Zephyr's CONFIG_NUM_IRQS)";
    line->irq = n;
    line->priority = IRQ_DEFAULT_PRIORITY;
    line->flags = IRQ_TYPE_EDGE;
    line->raise_reg = (volatile void *)(uintptr_t)(GICD_ISPENDRn + 4u * (n / 32u));
    line->raise_value = 1u << (n % 32u);
    return 0;
}
