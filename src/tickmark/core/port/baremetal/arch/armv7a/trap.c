/* Kernel entry on ARMv7-A (Cortex-A7) in a privileged mode with the MMU off, as picolibc leaves
 * it (supervisor mode, Thumb-2, exceptions taken in Thumb: SCTLR.TE): the minimal handlers of
 * trap.* and their installation. A vector table of this file goes into VBAR while a kind is
 * open, the table that was there before comes back when it closes. Each handler runs in the mode
 * of its exception, on a small stack of its own:
 *   call   SVC: return to the instruction after the svc (LR_svc). An svc made in the supervisor
 *          mode would overwrite that mode's own link register, so the loop runs in the system
 *          mode (privileged, with the user mode's SP and LR) while the kind is on.
 *   abort  a data abort: an unaligned load with alignment checking on (SCTLR.A, set only while
 *          the loop runs); the handler reads DFAR, then returns past the load (LR_abt - 4).
 *   undef  an undefined instruction: return past the 4-byte udf.w (LR_und is its address + 2
 *          in Thumb).
 *   irq    a GICv2 software-generated interrupt (SGI TM_BM_SOFT_IRQ) to this CPU, written to
 *          GICD_SGIR; the IRQ entry acknowledges it (GICC_IAR), ends it (GICC_EOIR), counts it.
 * Any other exception is reported (its vector, address and DFAR) and ends the program. The
 * GIC's addresses are the board's (BM_GIC_DIST, BM_GIC_CPU). */
#include "a_profile_trap.h"

const uintptr_t tm_bm_gicc = TM_BM_GIC_CPU;
extern const char tm_bm_vectors[];
void tm_bm_mode_stacks(void *irq, void *abt, void *und);
void tm_bm_to_system_mode(void);
void tm_bm_to_supervisor_mode(void);
void tm_bm_trap_unexpected32(uint32_t vector, uint32_t pc, uint32_t addr);

__asm__(".pushsection .text.tm_bm_trap,\"ax\",%progbits\n"
        "\t.syntax unified\n"
        "\t.thumb\n"
        "\t.balign 32\n"
        "\t.global tm_bm_vectors\n"
        "tm_bm_vectors:\n"
        "\tb.w 10f\n"                      /* reset */
        "\tb.w 2f\n"                       /* undefined instruction */
        "\tb.w 1f\n"                       /* SVC */
        "\tb.w 11f\n"                      /* prefetch abort */
        "\tb.w 3f\n"                       /* data abort */
        "\tb.w 10f\n"
        "\tb.w 5f\n"                       /* IRQ */
        "\tb.w 10f\n"                      /* FIQ */
        "1:\tmovs pc, lr\n"                /* SVC: LR is past the svc */
        "2:\tadd lr, lr, #2\n"             /* undef: LR is the udf.w + 2; past its 4 bytes */
        "\tmovs pc, lr\n"
        "3:\tpush {r0, r1}\n"              /* data abort */
        "\tmrc p15, 0, r0, c6, c0, 0\n"    /* DFAR */
        "\tldr r1, =tm_bm_trap_far\n"
        "\tstr r0, [r1]\n"
        "\tpop {r0, r1}\n"
        "\tsubs pc, lr, #4\n"              /* LR is the load + 8: past its 4 bytes */
        "5:\tpush {r0, r1}\n"              /* IRQ */
        "\tldr r0, =tm_bm_gicc\n"
        "\tldr r0, [r0]\n"
        "\tldr r1, [r0, #0x0c]\n"          /* GICC_IAR: acknowledge */
        "\tstr r1, [r0, #0x10]\n"          /* GICC_EOIR: done */
        "\tldr r0, =tm_bm_trap_irqs\n"
        "\tldr r1, [r0]\n"
        "\tadds r1, r1, #1\n"
        "\tstr r1, [r0]\n"
        "\tpop {r0, r1}\n"
        "\tsubs pc, lr, #4\n"              /* LR is the interrupted instruction + 4 */
        "10:\tmovs r0, #0\n"               /* anything else: report it */
        "\tb 12f\n"
        "11:\tmovs r0, #0x0c\n"
        "12:\tmov r1, lr\n"
        "\tmrc p15, 0, r2, c6, c0, 0\n"
        "\tbl tm_bm_trap_unexpected32\n"
        "\t.ltorg\n"
        /* tm_bm_mode_stacks(irq, abt, und): the stack pointers of the three exception modes */
        "\t.global tm_bm_mode_stacks\n"
        "\t.type tm_bm_mode_stacks, %function\n"
        "tm_bm_mode_stacks:\n"
        "\tmrs r3, cpsr\n"
        "\tcpsid if, #0x12\n"
        "\tmov sp, r0\n"
        "\tcps #0x17\n"
        "\tmov sp, r1\n"
        "\tcps #0x1b\n"
        "\tmov sp, r2\n"
        "\tmsr cpsr_c, r3\n"
        "\tbx lr\n"
        /* the system mode with the caller's stack, and back to the supervisor mode with it */
        "\t.global tm_bm_to_system_mode\n"
        "\t.type tm_bm_to_system_mode, %function\n"
        "tm_bm_to_system_mode:\n"
        "\tmov r0, sp\n"
        "\tmov r1, lr\n"
        "\tcps #0x1f\n"
        "\tmov sp, r0\n"
        "\tmov lr, r1\n"
        "\tbx lr\n"
        "\t.global tm_bm_to_supervisor_mode\n"
        "\t.type tm_bm_to_supervisor_mode, %function\n"
        "tm_bm_to_supervisor_mode:\n"
        "\tmov r0, sp\n"
        "\tmov r1, lr\n"
        "\tcps #0x13\n"
        "\tmov sp, r0\n"
        "\tmov lr, r1\n"
        "\tbx lr\n"
        "\t.popsection\n");

static uint32_t saved_mode;
static uint32_t unaligned[2] __attribute__((aligned(8)));
static uint64_t mode_stack[3][32] __attribute__((aligned(8))); /* IRQ, abort, undefined */

static uintptr_t vbar(void)
{
    uint32_t v;
    __asm__ __volatile__("mrc p15, 0, %0, c12, c0, 0" : "=r"(v));
    return v;
}

static void set_vbar(uintptr_t v) { __asm__ __volatile__("mcr p15, 0, %0, c12, c0, 0\n\tisb" : : "r"(v) : "memory"); }

static uintptr_t sctlr(void)
{
    uint32_t v;
    __asm__ __volatile__("mrc p15, 0, %0, c1, c0, 0" : "=r"(v));
    return v;
}

static void set_sctlr(uintptr_t v) { __asm__ __volatile__("mcr p15, 0, %0, c1, c0, 0\n\tisb" : : "r"(v) : "memory"); }

static void irqs_on(void) { __asm__ __volatile__("dsb\n\tcpsie i\n\tisb" : : : "memory"); }

static void irqs_off(void) { __asm__ __volatile__("cpsid i\n\tisb" : : : "memory"); }

static uint32_t mode(void)
{
    uint32_t v;
    __asm__ __volatile__("mrs %0, cpsr" : "=r"(v));
    return v & 0x1fu;
}

void tm_bm_trap_unexpected32(uint32_t vector, uint32_t pc, uint32_t addr)
{
    tm_bm_trap_unexpected(vector, pc, addr);
}

const char *tm_bm_trap_install(int kind, tm_bm_trap_plan *plan)
{
    if (kind == TM_TRAP_IRQ && gic_missing() != NULL)
        return gic_missing();
    if (kind == TM_TRAP_CALL && mode() != 0x13u)
        return "the program does not run in the supervisor mode, where this handler expects it";
    saved_vbar = vbar();
    tm_bm_mode_stacks(mode_stack[0] + 32, mode_stack[1] + 32, mode_stack[2] + 32);
    vectors_in(tm_bm_vectors, kind, plan, unaligned);
    return NULL;
}

/* Alignment checking and IRQs as on every A-profile CPU (a_profile_trap.h); trap.syscall's loop
 * runs in the system mode. */
void tm_bm_trap_during(int kind, int on)
{
    checks_during(kind, on);
    if (kind == TM_TRAP_CALL && on) {
        saved_mode = mode();
        tm_bm_to_system_mode();
    } else if (kind == TM_TRAP_CALL && saved_mode == 0x13u) {
        tm_bm_to_supervisor_mode();
    }
}

/* irq.*: a second vector table whose IRQ entry calls a C handler (tm_bm_irq_fn), in the IRQ mode
 * on a stack of its own: it saves the registers a C function may change (r0-r3, r12, LR_irq; r4
 * keeps the acknowledged interrupt across the call, r5 keeps the stack 8-byte aligned), acknowledges
 * the interrupt (GICC_IAR), calls the handler, ends the interrupt (GICC_EOIR) and returns to the
 * interrupted instruction. The handler must leave the floating-point registers alone, as the
 * benchmarks' handlers do. Every other entry is unexpected. IRQs stay unmasked while attached. */
void (*volatile tm_bm_irq_fn)(void);
extern const char tm_bm_irq_vectors[];
static uint64_t irq_stack[128] __attribute__((aligned(8)));

__asm__(".pushsection .text.tm_bm_irq,\"ax\",%progbits\n"
        "\t.syntax unified\n"
        "\t.thumb\n"
        "\t.balign 32\n"
        "\t.global tm_bm_irq_vectors\n"
        "tm_bm_irq_vectors:\n"
        "\tb.w 2f\n"                       /* reset */
        "\tb.w 2f\n"                       /* undefined instruction */
        "\tb.w 2f\n"                       /* SVC */
        "\tb.w 3f\n"                       /* prefetch abort */
        "\tb.w 3f\n"                       /* data abort */
        "\tb.w 2f\n"
        "\tb.w 1f\n"                       /* IRQ */
        "\tb.w 2f\n"                       /* FIQ */
        "1:\tpush {r0-r5, r12, lr}\n"
        "\tldr r0, =tm_bm_gicc\n"
        "\tldr r0, [r0]\n"
        "\tldr r4, [r0, #0x0c]\n"          /* GICC_IAR: acknowledge */
        "\tldr r0, =tm_bm_irq_fn\n"
        "\tldr r0, [r0]\n"
        "\tblx r0\n"
        "\tldr r0, =tm_bm_gicc\n"
        "\tldr r0, [r0]\n"
        "\tstr r4, [r0, #0x10]\n"          /* GICC_EOIR: done */
        "\tpop {r0-r5, r12, lr}\n"
        "\tsubs pc, lr, #4\n"              /* LR is the interrupted instruction + 4 */
        "2:\tmovs r0, #0\n"
        "\tb 4f\n"
        "3:\tmovs r0, #0x0c\n"
        "4:\tmov r1, lr\n"
        "\tmrc p15, 0, r2, c6, c0, 0\n"
        "\tbl tm_bm_trap_unexpected32\n"
        "\t.ltorg\n"
        "\t.popsection\n");

const char *tm_bm_irq_attach(void (*isr)(void), tm_bm_trap_plan *plan)
{
    if (gic_missing() != NULL)
        return gic_missing();
    saved_vbar = vbar();
    tm_bm_irq_fn = isr;
    tm_bm_mode_stacks(irq_stack + 128, mode_stack[1] + 32, mode_stack[2] + 32);
    set_vbar((uintptr_t)tm_bm_irq_vectors);
    gic_open((unsigned)(TM_BM_SOFT_IRQ), plan);
    irqs_on();
    return NULL;
}

void tm_bm_irq_detach(void)
{
    irq_vectors_out();
    tm_bm_irq_fn = 0;
}
