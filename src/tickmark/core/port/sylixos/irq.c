/* Interrupt to thread (irq.*) on SylixOS: the software interrupt of trap.irq (the board's
 * BM_SOFT_IRQ, a GIC SGI to this CPU), handed to the kernel with API_InterVectorConnect() and
 * API_InterVectorEnable(), so that it comes through SylixOS's own interrupt entry (archIntEntry,
 * API_InterEnter, the BSP's bspIntHandle: acknowledge, the kernel's dispatch, end) and leaves
 * through API_InterExit, where a switch that a handler's post asked for happens. The core runs
 * in the kernel's address space with the GIC mapped where it is, so the raise is the CPU's store
 * loop, as on bare metal. */
#define __SYLIXOS_KERNEL /* the interrupt API (k_api.h) is the kernel's, which the core is part of */
#include <SylixOS.h>

#include "irqline.h"
#include "runner.h"
#include "tickmark/osal.h"

#define GICD_SGIR (TM_BM_GIC_DIST + 0xF00u)

static void (*bench_isr)(void);
static volatile void *raise_reg;
static uint32_t raise_value;

static irqreturn_t dispatch(PVOID arg, ULONG vector)
{
    (void)arg;
    (void)vector;
    bench_isr();
    return LW_IRQ_HANDLED;
}

const char *tm_sy_irq_connect(void (*isr)(void), volatile void **reg, uint32_t *value)
{
    if (TM_BM_GIC_DIST == 0 || TM_BM_SOFT_IRQ < 0 || TM_BM_SOFT_IRQ > 15)
        return "no GIC software interrupt for it (BM_GIC_DIST, BM_SOFT_IRQ in the board description)";
    if (tm_arch_trap_call(0, 0) < 0)
        return "no kernel-entry loops for this CPU (arch/<arch>/trap.c)";
    bench_isr = isr;
    if (API_InterVectorConnect((ULONG)TM_BM_SOFT_IRQ, dispatch, LW_NULL, "tickmark") != ERROR_NONE)
        return "API_InterVectorConnect() refused the interrupt";
    API_InterVectorEnable((ULONG)TM_BM_SOFT_IRQ);
    *reg = (volatile void *)(uintptr_t)GICD_SGIR;
    *value = (2u << 24) | (uint32_t)TM_BM_SOFT_IRQ; /* to the requesting CPU only */
    return NULL;
}

void tm_sy_irq_disconnect(void)
{
    API_InterVectorDisable((ULONG)TM_BM_SOFT_IRQ);
    API_InterVectorDisconnect((ULONG)TM_BM_SOFT_IRQ, dispatch, LW_NULL);
}

const char *tm_os_irq_attach(void (*isr)(void)) { return tm_sy_irq_connect(isr, &raise_reg, &raise_value); }
void tm_os_irq_raise(void) { tm_arch_trap_store(1, raise_reg, raise_value); }
void tm_os_irq_raise_loop(uint64_t n) { tm_arch_trap_store(n, raise_reg, raise_value); }
void tm_os_irq_detach(void) { tm_sy_irq_disconnect(); }
