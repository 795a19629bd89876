/* The GICv2 of the Cortex-A boards (trap.irq and irq.*, arch/aarch64/trap.c, arch/armv7a/trap.c):
 * its registers at the board's addresses (BM_GIC_DIST, BM_GIC_CPU), and the software-generated
 * interrupt opened and closed again. Included by one file of each build. */
#ifndef TM_BM_GICV2_H
#define TM_BM_GICV2_H

#include <stdint.h>

#include "bm_trap.h"

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define GICD_CTLR (TM_BM_GIC_DIST + 0x000u)
#define GICD_ISENABLER0 (TM_BM_GIC_DIST + 0x100u)
#define GICD_ICENABLER0 (TM_BM_GIC_DIST + 0x180u)
#define GICD_IPRIORITYR(n) (TM_BM_GIC_DIST + 0x400u + (n))
#define GICD_SGIR (TM_BM_GIC_DIST + 0xF00u)
#define GICC_CTLR (TM_BM_GIC_CPU + 0x000u)
#define GICC_PMR (TM_BM_GIC_CPU + 0x004u)

static uint32_t saved_gicd_ctlr, saved_gicc_ctlr, saved_gicc_pmr;

/* The GIC on, the SGI enabled at the highest priority, and the store that raises it. */
static void gic_open(unsigned sgi, tm_bm_trap_plan *plan)
{
    saved_gicd_ctlr = REG(GICD_CTLR);
    saved_gicc_ctlr = REG(GICC_CTLR);
    saved_gicc_pmr = REG(GICC_PMR);
    *(volatile uint8_t *)(uintptr_t)GICD_IPRIORITYR(sgi) = 0; /* the highest priority */
    REG(GICD_ISENABLER0) = 1u << sgi;
    REG(GICD_CTLR) = 1u;
    REG(GICC_PMR) = 0xf0u;
    REG(GICC_CTLR) = 1u;
    plan->raise_reg = (volatile void *)(uintptr_t)GICD_SGIR;
    plan->raise_value = (2u << 24) | sgi; /* to the requesting CPU only */
}

static void gic_close(unsigned sgi)
{
    REG(GICD_ICENABLER0) = 1u << sgi;
    REG(GICC_CTLR) = saved_gicc_ctlr;
    REG(GICC_PMR) = saved_gicc_pmr;
    REG(GICD_CTLR) = saved_gicd_ctlr;
}

#endif
