/* Kernel entry on bare metal (trap.*): what the architecture's file (arch/<arch>/trap.c of this
 * port) provides to port/baremetal/trap.c. It owns the exception vectors: for one kind of entry
 * it installs a minimal handler (and what the kind needs: an MPU region, alignment checking, the
 * interrupt controller), and takes it all out again. Its handlers leave what they saw here:
 * the fault address they read (trap.abort) and the interrupts they took (trap.irq). */
#ifndef TM_BM_TRAP_H
#define TM_BM_TRAP_H

#include <stdint.h>

typedef struct tm_bm_trap_plan {
    const void *fault_addr;   /* what trap.abort loads from (the handler finds it in its FAR) */
    volatile void *raise_reg; /* trap.irq: this 32-bit store raises the interrupt */
    uint32_t raise_value;
} tm_bm_trap_plan;

/* Install the handler of kind (TM_TRAP_*), fill in the plan: NULL, or why not. */
const char *tm_bm_trap_install(int kind, tm_bm_trap_plan *plan);
/* Turn on (on = 1) just before the loop, and off after it, what must not stay on while the rest
 * of the program runs: alignment checking (it would refuse the C library's own unaligned
 * loads), interrupts. */
void tm_bm_trap_during(int kind, int on);
void tm_bm_trap_restore(int kind);
/* irq.*: the software interrupt of trap.irq with isr (a C function) as its handler, at a
 * priority from which an RTOS lets a handler call it; interrupts stay enabled (an RTOS needs
 * them). NULL, or why not on this CPU or board. Detach puts back what attach changed. */
const char *tm_bm_irq_attach(void (*isr)(void), tm_bm_trap_plan *plan);
void tm_bm_irq_detach(void);

extern volatile uintptr_t tm_bm_trap_far; /* the fault address the abort handler read */
extern volatile uint32_t tm_bm_trap_irqs; /* interrupts the handler took */

/* An exception no handler was installed for: one line, exit status 1. */
void tm_bm_trap_unexpected(uint64_t cause, uint64_t pc, uint64_t addr);

#endif
