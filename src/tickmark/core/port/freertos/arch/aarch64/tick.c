/* The FreeRTOS tick on AArch64: the generic timer's virtual timer (CNTV, interrupt
 * TM_RTOS_TIMER_IRQ, a PPI of the GICv2) at configTICK_RATE_HZ, each compare value one period
 * after the last (no drift). tm_rtos_irq() is the C handler the vector code calls with the
 * acknowledged interrupt (vectors.S saves the floating-point registers around it). Also the
 * report of an unexpected exception: its syndrome, the address it happened at, and exit. */
#include <stdio.h>
#include <stdlib.h>

#include "FreeRTOS.h"
#include "task.h"

#define REG32(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define GICD_CTLR (TM_RTOS_GIC_DIST + 0x000u)
#define GICD_ISENABLER(n) (TM_RTOS_GIC_DIST + 0x100u + 4u * (n))
#define GICD_IPRIORITYR(n) (TM_RTOS_GIC_DIST + 0x400u + (n))
#define GICC_CTLR (TM_RTOS_GIC_CPU + 0x000u)
#define GICC_BPR (TM_RTOS_GIC_CPU + 0x008u)

void FreeRTOS_Tick_Handler(void);
void tm_rtos_irq(uint32_t iar);
void tm_rtos_fault(uint64_t esr, uint64_t elr, uint64_t far);
const char *tm_bm_irq_system(void (*isr)(void), unsigned sgi);

static void (*volatile sgi_handler)(void);
static unsigned sgi_number = 0x3ffu;

static uint64_t period;

static uint64_t cntvct(void)
{
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}

void tm_rtos_setup_tick(void)
{
    uint64_t f;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
    period = f / configTICK_RATE_HZ;
    REG32(GICD_CTLR) = 1u;
    *(volatile uint8_t *)(uintptr_t)GICD_IPRIORITYR(TM_RTOS_TIMER_IRQ) =
        (uint8_t)(portLOWEST_USABLE_INTERRUPT_PRIORITY << portPRIORITY_SHIFT);
    REG32(GICD_ISENABLER(TM_RTOS_TIMER_IRQ / 32)) = 1u << (TM_RTOS_TIMER_IRQ % 32);
    REG32(GICC_BPR) = 0u;
    REG32(GICC_CTLR) = 1u;
    __asm__ __volatile__("msr cntv_cval_el0, %0\n\t"
                         "msr cntv_ctl_el0, %1\n\tisb" : : "r"(cntvct() + period), "r"(UINT64_C(1)) : "memory");
}

void tm_rtos_clear_tick(void)
{
    uint64_t cval;
    __asm__ __volatile__("mrs %0, cntv_cval_el0" : "=r"(cval));
    __asm__ __volatile__("msr cntv_cval_el0, %0\n\tisb" : : "r"(cval + period) : "memory");
}

void tm_rtos_irq(uint32_t iar)
{
    if ((iar & 0x3ffu) == TM_RTOS_TIMER_IRQ)
        FreeRTOS_Tick_Handler();
    else if ((iar & 0x3ffu) == sgi_number)
        sgi_handler();
}

void tm_rtos_fault(uint64_t esr, uint64_t elr, uint64_t far)
{
    fprintf(stderr, "AArch64 fault: ESR 0x%llx at 0x%llx (FAR 0x%llx)\n", (unsigned long long)esr,
            (unsigned long long)elr, (unsigned long long)far);
    exit(1);
}

/* irq.* (port/baremetal/arch/aarch64/trap.c): the benchmark's handler for the software-generated
 * interrupt sgi, called from tm_rtos_irq (FreeRTOS's IRQ entry, vApplicationIRQHandler) at the
 * lowest priority the kernel lets a handler call it from; isr 0 takes it out. */
const char *tm_bm_irq_system(void (*isr)(void), unsigned sgi)
{
    sgi_number = isr ? sgi : 0x3ffu;
    sgi_handler = isr;
    if (isr) {
        *(volatile uint8_t *)(uintptr_t)GICD_IPRIORITYR(sgi) =
            (uint8_t)(portLOWEST_USABLE_INTERRUPT_PRIORITY << portPRIORITY_SHIFT);
        REG32(GICD_ISENABLER(0)) = 1u << sgi;
    }
    return NULL;
}
