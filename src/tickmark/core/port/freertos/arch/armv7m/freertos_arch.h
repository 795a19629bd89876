/* FreeRTOS settings of the Cortex-M ports (ARM_CM3, ARM_CM4F, ARM_CM7): the kernel's interrupt
 * priorities, and its three handlers under the names of picolibc's vector table (so that the
 * table itself is picolibc's, unchanged). The tick is SysTick at the core clock. The board's
 * time base must then not be SysTick: the DWT cycle counter on a real board, the FPGAIO counter
 * on the MPS2 boards under QEMU (see port/baremetal/arch/armv7m/timebase.c). */
#ifndef FREERTOS_ARCH_H
#define FREERTOS_ARCH_H

/* Priorities as 8-bit register values, valid for any core that implements 3 or more priority
 * bits (the kernel at the lowest, system calls allowed from priority 0xa0 down). */
#define configKERNEL_INTERRUPT_PRIORITY 0xff
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 0xa0

#define vPortSVCHandler arm_svc_isr
#define xPortPendSVHandler arm_pendsv_isr
#define xPortSysTickHandler arm_systick_isr

#endif
