/* Kernel entry on AArch64 at EL1 (the MMU off, as picolibc leaves it): the minimal handlers of
 * trap.* and their installation. A vector table of this file goes into VBAR_EL1, where nothing
 * else is: where a system has its own table there (an RTOS), trap.* skips. Its synchronous entry
 * saves x0 and x1, reads the syndrome (ESR_EL1) and goes by its class, as a kernel does:
 *   call   SVC (EC 0x15): restore, eret (ELR_EL1 already points past the svc)
 *   abort  a data abort (EC 0x25): an unaligned load with alignment checking on (SCTLR_EL1.A,
 *          set only while the loop runs); the handler reads FAR_EL1, then returns past the load
 *   undef  an unknown instruction (EC 0): return past it
 *   irq    a GICv2 software-generated interrupt (SGI TM_BM_SOFT_IRQ) to this CPU, written to
 *          GICD_SGIR; the IRQ entry acknowledges it (GICC_IAR), ends it (GICC_EOIR), counts it
 * Any other exception is reported (its syndrome and address) and ends the program. The GIC's
 * addresses are the board's (BM_GIC_DIST, BM_GIC_CPU). */
#include "a_profile_trap.h"

const uintptr_t tm_bm_gicc = TM_BM_GIC_CPU;
extern const char tm_bm_vectors[];

__asm__(".pushsection .text.tm_bm_trap,\"ax\",%progbits\n"
        "\t.balign 2048\n"
        "\t.global tm_bm_vectors\n"
        "tm_bm_vectors:\n"
        "\tb 1f\n"                        /* current EL, SP_EL0: synchronous */
        "\t.balign 0x80\n"
        "\tb 5f\n"                        /* IRQ */
        "\t.balign 0x80\n"
        "\tb 9f\n"
        "\t.balign 0x80\n"
        "\tb 9f\n"
        "\t.balign 0x80\n"
        "1:\tstp x0, x1, [sp, #-16]!\n"   /* current EL, SP_ELx: synchronous */
        "\tmrs x0, esr_el1\n"
        "\tlsr x0, x0, #26\n"             /* the exception class */
        "\tcmp x0, #0x15\n"               /* SVC */
        "\tb.ne 2f\n"
        "\tldp x0, x1, [sp], #16\n"
        "\teret\n"
        "2:\tcmp x0, #0x25\n"             /* data abort at this EL */
        "\tb.ne 3f\n"
        "\tmrs x0, far_el1\n"
        "\tadrp x1, tm_bm_trap_far\n"
        "\tstr x0, [x1, #:lo12:tm_bm_trap_far]\n"
        "\tb 4f\n"
        "3:\tcbnz x0, 8f\n"               /* EC 0: an unknown instruction */
        "4:\tmrs x0, elr_el1\n"           /* return past the 4-byte instruction */
        "\tadd x0, x0, #4\n"
        "\tmsr elr_el1, x0\n"
        "\tldp x0, x1, [sp], #16\n"
        "\teret\n"
        "\t.balign 0x80\n"
        "5:\tstp x0, x1, [sp, #-16]!\n"   /* IRQ */
        "\tadrp x0, tm_bm_gicc\n"
        "\tldr x0, [x0, #:lo12:tm_bm_gicc]\n"
        "\tldr w1, [x0, #0x0c]\n"         /* GICC_IAR: acknowledge */
        "\tstr w1, [x0, #0x10]\n"         /* GICC_EOIR: done */
        "\tadrp x0, tm_bm_trap_irqs\n"
        "\tldr w1, [x0, #:lo12:tm_bm_trap_irqs]\n"
        "\tadd w1, w1, #1\n"
        "\tstr w1, [x0, #:lo12:tm_bm_trap_irqs]\n"
        "\tldp x0, x1, [sp], #16\n"
        "\teret\n"
        "\t.balign 0x80\n"
        "\tb 9f\n"
        "\t.balign 0x80\n"
        "\tb 9f\n"
        "\t.balign 0x80\n"
        "\t.rept 8\n"                     /* lower ELs: nothing runs there */
        "\tb 9f\n"
        "\t.balign 0x80\n"
        "\t.endr\n"
        "8:\tldp x0, x1, [sp], #16\n"
        "9:\tmrs x0, esr_el1\n"
        "\tmrs x1, elr_el1\n"
        "\tmrs x2, far_el1\n"
        "\tbl tm_bm_trap_unexpected\n"
        "\t.popsection\n");

static uint64_t unaligned[2] __attribute__((aligned(16)));

static uintptr_t vbar(void)
{
    uint64_t v;
    __asm__ __volatile__("mrs %0, vbar_el1" : "=r"(v));
    return v;
}

static void set_vbar(uintptr_t v) { __asm__ __volatile__("msr vbar_el1, %0\n\tisb" : : "r"(v) : "memory"); }

static uintptr_t sctlr(void)
{
    uint64_t v;
    __asm__ __volatile__("mrs %0, sctlr_el1" : "=r"(v));
    return v;
}

static void set_sctlr(uintptr_t v) { __asm__ __volatile__("msr sctlr_el1, %0\n\tisb" : : "r"(v) : "memory"); }

static void irqs_on(void) { __asm__ __volatile__("dsb sy\n\tmsr daifclr, #2\n\tisb" : : : "memory"); }

static void irqs_off(void) { __asm__ __volatile__("msr daifset, #2\n\tisb" : : : "memory"); }

const char *tm_bm_trap_install(int kind, tm_bm_trap_plan *plan)
{
    saved_vbar = vbar();
    if (saved_vbar != 0 && saved_vbar != (uintptr_t)tm_bm_vectors)
        return "the exception vectors are the system's (VBAR_EL1 is set): it has no handler for this";
    if (kind == TM_TRAP_IRQ && gic_missing() != NULL)
        return gic_missing();
    vectors_in(tm_bm_vectors, kind, plan, unaligned);
    return NULL;
}

void tm_bm_trap_during(int kind, int on) { checks_during(kind, on); }

/* irq.*: a second vector table whose IRQ entry calls a C handler (tm_bm_irq_fn): it saves the
 * registers a C function may change (x0-x18, x30; the handler must leave the floating-point
 * registers alone, as the benchmarks' handlers do), acknowledges the interrupt (GICC_IAR), calls
 * the handler, ends the interrupt (GICC_EOIR) and returns. Every other entry is unexpected.
 * Under an RTOS that owns the vectors (VBAR_EL1 set to its own), the RTOS's IRQ dispatch calls
 * the handler instead, if the port routes the SGI to it (tm_bm_irq_system). */
void (*volatile tm_bm_irq_fn)(void);
extern const char tm_bm_irq_vectors[];

__asm__(".pushsection .text.tm_bm_irq,\"ax\",%progbits\n"
        "\t.balign 2048\n"
        "\t.global tm_bm_irq_vectors\n"
        "tm_bm_irq_vectors:\n"
        "\tb 2f\n"                        /* current EL, SP_EL0: synchronous */
        "\t.balign 0x80\n"
        "\tb 3f\n"                        /* IRQ */
        "\t.balign 0x80\n"
        "\t.rept 3\n"
        "\tb 2f\n"
        "\t.balign 0x80\n"
        "\t.endr\n"
        "\tb 3f\n"                        /* current EL, SP_ELx: IRQ */
        "\t.balign 0x80\n"
        "\t.rept 10\n"
        "\tb 2f\n"
        "\t.balign 0x80\n"
        "\t.endr\n"
        "3:\tsub sp, sp, #176\n"
        "\tstp x0, x1, [sp, #0]\n"
        "\tstp x2, x3, [sp, #16]\n"
        "\tstp x4, x5, [sp, #32]\n"
        "\tstp x6, x7, [sp, #48]\n"
        "\tstp x8, x9, [sp, #64]\n"
        "\tstp x10, x11, [sp, #80]\n"
        "\tstp x12, x13, [sp, #96]\n"
        "\tstp x14, x15, [sp, #112]\n"
        "\tstp x16, x17, [sp, #128]\n"
        "\tstp x18, x30, [sp, #144]\n"
        "\tadrp x0, tm_bm_gicc\n"
        "\tldr x0, [x0, #:lo12:tm_bm_gicc]\n"
        "\tldr w1, [x0, #0x0c]\n"           /* GICC_IAR: acknowledge */
        "\tstr w1, [sp, #160]\n"
        "\tadrp x0, tm_bm_irq_fn\n"
        "\tldr x0, [x0, #:lo12:tm_bm_irq_fn]\n"
        "\tblr x0\n"
        "\tadrp x0, tm_bm_gicc\n"
        "\tldr x0, [x0, #:lo12:tm_bm_gicc]\n"
        "\tldr w1, [sp, #160]\n"
        "\tstr w1, [x0, #0x10]\n"           /* GICC_EOIR: done */
        "\tldp x0, x1, [sp, #0]\n"
        "\tldp x2, x3, [sp, #16]\n"
        "\tldp x4, x5, [sp, #32]\n"
        "\tldp x6, x7, [sp, #48]\n"
        "\tldp x8, x9, [sp, #64]\n"
        "\tldp x10, x11, [sp, #80]\n"
        "\tldp x12, x13, [sp, #96]\n"
        "\tldp x14, x15, [sp, #112]\n"
        "\tldp x16, x17, [sp, #128]\n"
        "\tldp x18, x30, [sp, #144]\n"
        "\tadd sp, sp, #176\n"
        "\teret\n"
        "2:\tmrs x0, esr_el1\n"
        "\tmrs x1, elr_el1\n"
        "\tmrs x2, far_el1\n"
        "\tbl tm_bm_trap_unexpected\n"
        "\t.popsection\n");

/* An RTOS port that owns the vectors and can route the SGI to a handler of the benchmark's
 * defines this (port/freertos/arch/aarch64/tick.c); elsewhere the vectors are not ours. */
__attribute__((weak)) const char *tm_bm_irq_system(void (*isr)(void), unsigned sgi)
{
    (void)isr;
    (void)sgi;
    return "the exception vectors are the system's (VBAR_EL1 is set) and it routes no interrupt to a handler of ours";
}

static int irq_on_system;

const char *tm_bm_irq_attach(void (*isr)(void), tm_bm_trap_plan *plan)
{
    unsigned sgi = (unsigned)(TM_BM_SOFT_IRQ);
    if (gic_missing() != NULL)
        return gic_missing();
    plan->raise_reg = (volatile void *)(uintptr_t)GICD_SGIR;
    plan->raise_value = (2u << 24) | sgi; /* to the requesting CPU only */
    saved_vbar = vbar();
    irq_on_system = saved_vbar != 0 && saved_vbar != (uintptr_t)tm_bm_vectors;
    if (irq_on_system)
        return tm_bm_irq_system(isr, sgi);
    tm_bm_irq_fn = isr;
    set_vbar((uintptr_t)tm_bm_irq_vectors);
    gic_open(sgi, plan);
    irqs_on();
    return NULL;
}

void tm_bm_irq_detach(void)
{
    if (irq_on_system) {
        tm_bm_irq_system(0, (unsigned)(TM_BM_SOFT_IRQ));
        return;
    }
    irq_vectors_out();
    tm_bm_irq_fn = 0;
}
