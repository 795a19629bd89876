/* What the kernel entry of the A-profile CPUs (arch/aarch64/trap.c, arch/armv7a/trap.c) does
 * alike: a vector table of its own goes into the vector base register while a kind is open, and
 * the one that was there comes back when it closes; trap.abort checks alignment (SCTLR's A bit)
 * and trap.irq unmasks IRQs only while the loop runs; trap.irq and irq.* raise a software-
 * generated interrupt of the GICv2 (gicv2.h). The including file defines how its CPU reads and
 * writes those two registers (both of the address's width) and masks its IRQs: the functions
 * declared below. Included by one file of each build. */
#ifndef TM_BM_A_PROFILE_TRAP_H
#define TM_BM_A_PROFILE_TRAP_H

#include <stdint.h>

#include "bm_trap.h"
#include "gicv2.h"
#include "tickmark/osal.h"

#define SCTLR_A (1u << 1)

static uintptr_t vbar(void);
static void set_vbar(uintptr_t v);
static uintptr_t sctlr(void);
static void set_sctlr(uintptr_t v);
static void irqs_on(void);  /* the IRQ mask cleared, after the writes before it are done */
static void irqs_off(void);

static uintptr_t saved_vbar, saved_sctlr;

/* NULL when the board has the GICv2 and an SGI for trap.irq and irq.*; else why not. */
static const char *gic_missing(void)
{
    unsigned sgi = (unsigned)(TM_BM_SOFT_IRQ);
    if (TM_BM_GIC_DIST == 0 || TM_BM_GIC_CPU == 0 || TM_BM_SOFT_IRQ < 0 || sgi > 15)
        return "no GICv2 or SGI for it (BM_GIC_DIST, BM_GIC_CPU, BM_SOFT_IRQ in the board description)";
    return NULL;
}

/* The vector table in (the one there now kept in saved_vbar by the caller), and what the kind
 * needs: the unaligned address trap.abort loads from, the GIC's SGI for trap.irq. */
static void vectors_in(const char *vectors, int kind, tm_bm_trap_plan *plan, const void *unaligned)
{
    set_vbar((uintptr_t)vectors);
    if (kind == TM_TRAP_ABORT) {
        plan->fault_addr = (const char *)unaligned + 1;
    } else if (kind == TM_TRAP_IRQ) {
        gic_open((unsigned)(TM_BM_SOFT_IRQ), plan);
    }
}

/* Alignment checking (SCTLR's A bit) only while the loop runs: the C library's memcpy makes
 * unaligned loads of its own. IRQs are unmasked only while the loop runs. */
static void checks_during(int kind, int on)
{
    if (kind == TM_TRAP_ABORT && on) {
        saved_sctlr = sctlr();
        set_sctlr(saved_sctlr | SCTLR_A);
    } else if (kind == TM_TRAP_ABORT) {
        set_sctlr(saved_sctlr);
    } else if (kind == TM_TRAP_IRQ && on) {
        irqs_on();
    } else if (kind == TM_TRAP_IRQ) {
        irqs_off();
    }
}

void tm_bm_trap_restore(int kind)
{
    if (kind == TM_TRAP_IRQ)
        gic_close((unsigned)(TM_BM_SOFT_IRQ));
    set_vbar(saved_vbar);
}

/* irq.*: the interrupt masked, the GIC's SGI closed, the vectors that were there back. */
static void irq_vectors_out(void)
{
    irqs_off();
    gic_close((unsigned)(TM_BM_SOFT_IRQ));
    set_vbar(saved_vbar);
}

#endif
