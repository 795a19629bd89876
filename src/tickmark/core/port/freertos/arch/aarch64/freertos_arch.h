/* FreeRTOS settings of the AArch64 port (ARM_AARCH64, built with -DGUEST: the kernel and its
 * tasks run at EL1, where QEMU's virt machine starts the program): the GICv2 of the board
 * (distributor TM_RTOS_GIC_DIST, CPU interface TM_RTOS_GIC_CPU), 32 interrupt priorities, and
 * the tick from the generic timer (tick.c). Every task has a floating-point context (the
 * compiler uses the SIMD registers in ordinary code). */
#ifndef FREERTOS_ARCH_H
#define FREERTOS_ARCH_H

#define configINTERRUPT_CONTROLLER_BASE_ADDRESS (TM_RTOS_GIC_DIST)
#define configINTERRUPT_CONTROLLER_CPU_INTERFACE_OFFSET ((TM_RTOS_GIC_CPU) - (TM_RTOS_GIC_DIST))
#define configUNIQUE_INTERRUPT_PRIORITIES 32
#define configMAX_API_CALL_INTERRUPT_PRIORITY 18
#define configUSE_TASK_FPU_SUPPORT 2

void tm_rtos_setup_tick(void);
void tm_rtos_clear_tick(void);
#define configSETUP_TICK_INTERRUPT() tm_rtos_setup_tick()
#define configCLEAR_TICK_INTERRUPT() tm_rtos_clear_tick()

#endif
