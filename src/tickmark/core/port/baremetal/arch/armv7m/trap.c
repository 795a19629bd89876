/* Kernel entry on Cortex-M (ARMv7-M, ARMv8-M mainline): the minimal handlers of trap.* and their
 * installation. The vector table is copied into RAM (VTOR), so that the program's own table stays
 * as it is and everything else in it (an RTOS's PendSV and SysTick) keeps working; then:
 *   call   SVCall: bx lr, nothing else (the core saves and restores r0-r3, r12, lr, pc, xPSR)
 *   abort  a 32-byte block the MPU forbids (its highest region, with the default map for the
 *          rest), MemManage enabled: the handler reads MMFAR, clears the fault status and
 *          returns past the 4-byte load (the stacked pc + 4, on whichever stack was in use)
 *   undef  UsageFault enabled: the handler clears the fault status and returns past udf.w
 *   irq    external interrupt TM_BM_SOFT_IRQ (boards/<board>.mk: BM_SOFT_IRQ) at the highest
 *          priority, raised by a write to its NVIC set-pending bit; the handler counts it
 * Everything is put back afterwards: the vector table, the MPU, the fault enables, the NVIC. */
#include <string.h>

#include "bm_trap.h"
#include "tickmark/osal.h"

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define ICTR 0xE000E004u
#define NVIC_ISER(n) (0xE000E100u + 4u * (n))
#define NVIC_ICER(n) (0xE000E180u + 4u * (n))
#define NVIC_ISPR(n) (0xE000E200u + 4u * (n))
#define NVIC_ICPR(n) (0xE000E280u + 4u * (n))
#define NVIC_IPR(n) (0xE000E400u + (n))
#define SCB_VTOR 0xE000ED08u
#define SCB_SHCSR 0xE000ED24u
#define SCB_CFSR 0xE000ED28u
#define MPU_TYPE 0xE000ED90u
#define MPU_CTRL 0xE000ED94u
#define MPU_RNR 0xE000ED98u
#define MPU_RBAR 0xE000ED9Cu
#define MPU_RASR 0xE000EDA0u
#define SHCSR_MEMFAULTENA (1u << 16)
#define SHCSR_USGFAULTENA (1u << 18)

enum { MEMMANAGE = 4, USAGEFAULT = 6, SVCALL = 11, FIRST_IRQ = 16, HARDFAULT = 3 };
#define IRQ_LINES 224u               /* what the table below has room for */
#define TABLE_WORDS (FIRST_IRQ + IRQ_LINES)

void tm_bm_svc_isr(void);
void tm_bm_memmanage_isr(void);
void tm_bm_usagefault_isr(void);
void tm_bm_irq_isr(void);

/* The handlers. A handler uses r0-r3 only, which the exception entry saved. */
__asm__(".pushsection .text.tm_bm_trap,\"ax\",%progbits\n"
        "\t.syntax unified\n"
        "\t.thumb\n"
        "\t.balign 4\n"
        "\t.global tm_bm_svc_isr\n"
        "\t.type tm_bm_svc_isr, %function\n"
        "\t.thumb_func\n"
        "tm_bm_svc_isr:\n"
        "\tbx lr\n"
        "\t.size tm_bm_svc_isr, . - tm_bm_svc_isr\n"
        "\t.global tm_bm_memmanage_isr\n"
        "\t.type tm_bm_memmanage_isr, %function\n"
        "\t.thumb_func\n"
        "tm_bm_memmanage_isr:\n"
        "\ttst lr, #4\n"                 /* the frame: on the main or the process stack */
        "\tite eq\n"
        "\tmrseq r0, msp\n"
        "\tmrsne r0, psp\n"
        "\tldr r1, =0xE000ED34\n"        /* MMFAR: the address the load was refused at */
        "\tldr r1, [r1]\n"
        "\tldr r2, =tm_bm_trap_far\n"
        "\tstr r1, [r2]\n"
        "\tb 1f\n"
        "\t.size tm_bm_memmanage_isr, . - tm_bm_memmanage_isr\n"
        "\t.global tm_bm_usagefault_isr\n"
        "\t.type tm_bm_usagefault_isr, %function\n"
        "\t.thumb_func\n"
        "tm_bm_usagefault_isr:\n"
        "\ttst lr, #4\n"
        "\tite eq\n"
        "\tmrseq r0, msp\n"
        "\tmrsne r0, psp\n"
        "1:\tldr r1, =0xE000ED28\n"      /* CFSR: the status bits set are cleared by writing them */
        "\tldr r2, [r1]\n"
        "\tstr r2, [r1]\n"
        "\tldr r1, [r0, #24]\n"          /* the stacked pc: the faulting instruction */
        "\tadds r1, r1, #4\n"
        "\tstr r1, [r0, #24]\n"
        "\tbx lr\n"
        "\t.size tm_bm_usagefault_isr, . - tm_bm_usagefault_isr\n"
        "\t.global tm_bm_irq_isr\n"
        "\t.type tm_bm_irq_isr, %function\n"
        "\t.thumb_func\n"
        "tm_bm_irq_isr:\n"
        "\tldr r0, =tm_bm_trap_irqs\n"
        "\tldr r1, [r0]\n"
        "\tadds r1, r1, #1\n"
        "\tstr r1, [r0]\n"
        "\tbx lr\n"
        "\t.size tm_bm_irq_isr, . - tm_bm_irq_isr\n"
        "\t.ltorg\n"
        "\t.popsection\n");

static uint32_t table[TABLE_WORDS] __attribute__((aligned(1024)));
static uint32_t forbidden[8] __attribute__((aligned(32))); /* the block the MPU forbids */
static uint32_t saved_vtor, saved_shcsr, saved_mpu_ctrl, saved_rbar, saved_rasr;

static void barrier(void) { __asm__ __volatile__("dsb\n\tisb" : : : "memory"); }

static unsigned irq_lines(void) { return 32u * ((REG(ICTR) & 0xfu) + 1u); }

/* The RAM table: the program's 16 system vectors, every interrupt to its HardFault handler. */
static void use_table(void)
{
    unsigned i;
    saved_vtor = REG(SCB_VTOR);
    memcpy(table, (const void *)(uintptr_t)saved_vtor, FIRST_IRQ * sizeof table[0]);
    for (i = FIRST_IRQ; i < TABLE_WORDS; i++)
        table[i] = table[HARDFAULT];
    saved_shcsr = REG(SCB_SHCSR);
    barrier();
    REG(SCB_VTOR) = (uint32_t)(uintptr_t)table;
    barrier();
}

/* The software interrupt's line, BM_SOFT_IRQ: one the NVIC and the table have. */
#define NO_SOFT_IRQ "no interrupt line for it (BM_SOFT_IRQ in the board description, below the NVIC's lines)"
static int soft_irq_fits(void)
{
    return TM_BM_SOFT_IRQ >= 0 && (unsigned)(TM_BM_SOFT_IRQ) < irq_lines() && (unsigned)(TM_BM_SOFT_IRQ) < IRQ_LINES;
}

/* Line irq to isr at priority prio (8-bit register value), nothing pending, enabled; the plan's
 * store pends it. */
static void nvic_route(unsigned irq, void (*isr)(void), uint8_t prio, tm_bm_trap_plan *plan)
{
    table[FIRST_IRQ + irq] = (uint32_t)(uintptr_t)isr;
    *(volatile uint8_t *)(uintptr_t)NVIC_IPR(irq) = prio;
    REG(NVIC_ICPR(irq / 32u)) = 1u << (irq % 32u);
    REG(NVIC_ISER(irq / 32u)) = 1u << (irq % 32u);
    plan->raise_reg = (volatile void *)(uintptr_t)NVIC_ISPR(irq / 32u);
    plan->raise_value = 1u << (irq % 32u);
}

const char *tm_bm_trap_install(int kind, tm_bm_trap_plan *plan)
{
    unsigned regions = (REG(MPU_TYPE) >> 8) & 0xffu, irq = (unsigned)(TM_BM_SOFT_IRQ);
    if (kind == TM_TRAP_ABORT && regions == 0)
        return "no MPU on this core (MPU_TYPE.DREGION is 0): nothing to refuse the load";
    if (kind == TM_TRAP_IRQ && !soft_irq_fits())
        return NO_SOFT_IRQ;
    use_table();
    switch (kind) {
    case TM_TRAP_CALL:
        table[SVCALL] = (uint32_t)(uintptr_t)tm_bm_svc_isr;
        break;
    case TM_TRAP_ABORT:
        table[MEMMANAGE] = (uint32_t)(uintptr_t)tm_bm_memmanage_isr;
        saved_mpu_ctrl = REG(MPU_CTRL);
        REG(MPU_RNR) = regions - 1u; /* the highest region wins where regions overlap */
        saved_rbar = REG(MPU_RBAR);
        saved_rasr = REG(MPU_RASR);
        REG(MPU_RBAR) = (uint32_t)(uintptr_t)forbidden;
        REG(MPU_RASR) = (1u << 28) | (4u << 1) | 1u; /* never executed, no access, 2^(4+1) bytes, on */
        REG(MPU_CTRL) = saved_mpu_ctrl | 1u | 4u;     /* on; the default map for everything else */
        REG(SCB_SHCSR) = saved_shcsr | SHCSR_MEMFAULTENA;
        plan->fault_addr = forbidden;
        break;
    case TM_TRAP_UNDEF:
        table[USAGEFAULT] = (uint32_t)(uintptr_t)tm_bm_usagefault_isr;
        REG(SCB_SHCSR) = saved_shcsr | SHCSR_USGFAULTENA;
        break;
    default:
        nvic_route(irq, tm_bm_irq_isr, 0, plan); /* the highest priority */
    }
    barrier();
    return NULL;
}

/* Nothing to hold back: the MPU region and the fault enables touch only the benchmark's own
 * block and instructions, and the interrupt has no other source. */
void tm_bm_trap_during(int kind, int on)
{
    (void)kind;
    (void)on;
}

void tm_bm_trap_restore(int kind)
{
    unsigned irq = (unsigned)(TM_BM_SOFT_IRQ);
    if (kind == TM_TRAP_ABORT) {
        REG(MPU_CTRL) = saved_mpu_ctrl;
        REG(MPU_RBAR) = saved_rbar;
        REG(MPU_RASR) = saved_rasr;
    } else if (kind == TM_TRAP_IRQ) {
        REG(NVIC_ICER(irq / 32u)) = 1u << (irq % 32u);
        REG(NVIC_ICPR(irq / 32u)) = 1u << (irq % 32u);
    }
    REG(SCB_SHCSR) = saved_shcsr;
    barrier();
    REG(SCB_VTOR) = saved_vtor;
    barrier();
}

/* irq.*: the same line with a C function as its handler (a Cortex-M calls handlers by the C
 * calling convention), at priority 0xc0: below FreeRTOS's configMAX_SYSCALL_INTERRUPT_PRIORITY
 * (0xa0), so that the handler may give a semaphore, and above its tick and PendSV (0xff). */
#define IRQ_BENCH_PRIORITY 0xc0u

const char *tm_bm_irq_attach(void (*isr)(void), tm_bm_trap_plan *plan)
{
    if (!soft_irq_fits())
        return NO_SOFT_IRQ;
    use_table();
    nvic_route((unsigned)(TM_BM_SOFT_IRQ), isr, IRQ_BENCH_PRIORITY, plan);
    barrier();
    return NULL;
}

void tm_bm_irq_detach(void) { tm_bm_trap_restore(TM_TRAP_IRQ); }
