/* Kernel entry on RISC-V in machine mode: the minimal handler of trap.* and its installation. One
 * handler goes into mtvec (direct mode) for the benchmark, where the program's was; it saves t0
 * and t1, reads mcause and goes by it, as a kernel does:
 *   call   ecall from M-mode (cause 11): step over it (mepc + 4), mret
 *   abort  a load access fault (cause 5; 4, misaligned, is taken the same way) from
 *          TM_BM_FAULT_ADDR (BM_FAULT_ADDR in the board description: an address with nothing
 *          there); the handler reads mtval, then returns past the 4-byte load
 *   undef  an illegal instruction (cause 2): return past it
 *   irq    the machine software interrupt of hart 0, raised by a write of 1 to its CLINT msip
 *          register (BM_CLINT); the handler clears msip and counts it
 * Any other trap is reported (its cause and address) and ends the program. */
#include "bm_trap.h"
#include "tickmark/osal.h"

#define MIP_MSIP (1u << 3)
#define MSTATUS_MIE (1u << 3)

const uintptr_t tm_bm_msip = TM_BM_CLINT;
void tm_bm_rv_trap(void);

__asm__(".pushsection .text.tm_bm_trap,\"ax\",%progbits\n"
        "\t.balign 4\n"
        "\t.global tm_bm_rv_trap\n"
        "tm_bm_rv_trap:\n"
        "\taddi sp, sp, -16\n"
        "\tsd t0, 0(sp)\n"
        "\tsd t1, 8(sp)\n"
        "\tcsrr t0, mcause\n"
        "\tbltz t0, 4f\n"                 /* an interrupt */
        "\tli t1, 11\n"                   /* ecall from M-mode */
        "\tbeq t0, t1, 2f\n"
        "\tli t1, 2\n"                    /* illegal instruction */
        "\tbeq t0, t1, 2f\n"
        "\taddi t1, t0, -4\n"             /* 4: load misaligned, 5: load access fault */
        "\tli t0, 1\n"
        "\tbgtu t1, t0, 9f\n"
        "\tcsrr t0, mtval\n"              /* the address the load was refused at */
        "\tla t1, tm_bm_trap_far\n"
        "\tsd t0, 0(t1)\n"
        "2:\tcsrr t0, mepc\n"             /* return past the 4-byte instruction */
        "\taddi t0, t0, 4\n"
        "\tcsrw mepc, t0\n"
        "3:\tld t0, 0(sp)\n"
        "\tld t1, 8(sp)\n"
        "\taddi sp, sp, 16\n"
        "\tmret\n"
        "4:\tla t0, tm_bm_msip\n"         /* the machine software interrupt: clear it, count it */
        "\tld t0, 0(t0)\n"
        "\tsw zero, 0(t0)\n"
        "\tla t0, tm_bm_trap_irqs\n"
        "\tlw t1, 0(t0)\n"
        "\taddi t1, t1, 1\n"
        "\tsw t1, 0(t0)\n"
        "\tj 3b\n"
        "9:\tcsrr a0, mcause\n"
        "\tcsrr a1, mepc\n"
        "\tcsrr a2, mtval\n"
        "\tcall tm_bm_trap_unexpected\n"
        "\t.popsection\n");

static uint64_t saved_mtvec;

const char *tm_bm_trap_install(int kind, tm_bm_trap_plan *plan)
{
    if (kind == TM_TRAP_ABORT && TM_BM_FAULT_ADDR == 0)
        return "no address to fault at (BM_FAULT_ADDR in the board description)";
    if (kind == TM_TRAP_IRQ && TM_BM_CLINT == 0)
        return "no CLINT for it (BM_CLINT in the board description)";
    __asm__ __volatile__("csrrw %0, mtvec, %1" : "=r"(saved_mtvec) : "r"((uintptr_t)tm_bm_rv_trap) : "memory");
    if (kind == TM_TRAP_ABORT) {
        plan->fault_addr = (const void *)(uintptr_t)TM_BM_FAULT_ADDR;
    } else if (kind == TM_TRAP_IRQ) {
        *(volatile uint32_t *)tm_bm_msip = 0;
        __asm__ __volatile__("csrs mie, %0" : : "r"(MIP_MSIP) : "memory");
        plan->raise_reg = (volatile void *)tm_bm_msip;
        plan->raise_value = 1;
    }
    return NULL;
}

/* Interrupts are on (mstatus.MIE) only while the loop runs. */
void tm_bm_trap_during(int kind, int on)
{
    if (kind == TM_TRAP_IRQ && on)
        __asm__ __volatile__("csrs mstatus, %0" : : "r"(MSTATUS_MIE) : "memory");
    else if (kind == TM_TRAP_IRQ)
        __asm__ __volatile__("csrc mstatus, %0" : : "r"(MSTATUS_MIE) : "memory");
}

void tm_bm_trap_restore(int kind)
{
    if (kind == TM_TRAP_IRQ)
        __asm__ __volatile__("csrc mie, %0" : : "r"(MIP_MSIP) : "memory");
    __asm__ __volatile__("csrw mtvec, %0" : : "r"(saved_mtvec) : "memory");
}

/* irq.*: the IRQ entry here is trap.irq's own assembly (acknowledge, count, return); calling a C
 * handler from it (saving the caller-saved registers, the GIC/CLINT acknowledge around the
 * call) is not written yet, so irq.* skips on this CPU. */
const char *tm_bm_irq_attach(void (*isr)(void), tm_bm_trap_plan *plan)
{
    (void)isr;
    (void)plan;
    return "no C interrupt handler path on this CPU yet (port/baremetal/arch/<arch>/trap.c)";
}

void tm_bm_irq_detach(void) {}
