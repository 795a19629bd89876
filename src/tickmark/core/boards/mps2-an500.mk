# ARM MPS2 FPGA board with the AN500 image: Cortex-M7 (single-precision and double FPU), 25 MHz.
# Memory: ZBT SSRAM1 4 MiB at 0 (vectors, code, constants), SSRAM2/3 4 MiB at 0x20000000
# (data, heap, stack). Counter: the FPGAIO COUNTER, a free-running 32-bit up-counter at the
# core clock. Console: semihosting; UART0 is a CMSDK UART at 0x40004000.
BM_ARCH = armv7m
CROSS_COMPILE = arm-none-eabi-
BM_SPECS = /usr/lib/picolibc/arm-none-eabi/picolibc.specs
BM_CPU = -mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16
BM_FLASH = 0x00000000
BM_FLASH_SIZE = 0x00400000
BM_RAM = 0x20000000
BM_RAM_SIZE = 0x00400000
BM_STACK_SIZE = 0x00010000
BM_CLOCK_HZ = 25000000
BM_COUNTER_ADDR = 0x40028018
BM_COUNTER_HZ = 25000000
BM_UART_ADDR = 0x40004000
# trap.irq raises external interrupt 31 (nothing else uses it) through the NVIC.
BM_SOFT_IRQ = 31
QEMU = qemu-system-arm -M mps2-an500
PACKAGES = gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm
# FreeRTOS (os=freertos): the kernel's Cortex-M4F port (the M7 runs it; ARM_CM7/r0p1 is for the
# r0p1 erratum); 2 MiB of the RAM for its heap.
FREERTOS_PORT = ARM_CM4F
RTOS_HEAP_SIZE = 0x00200000
# NuttX (os=nuttx): the kernel's mps2-an500 board (flat build; its tick is SysTick, the clock the
# FPGAIO counter; NuttX compiles for the M7's single-precision FPU, fpv5-sp-d16).
NUTTX_BOARD = mps2-an500:nsh
# Zephyr (os=zephyr): tickmark's own board definition for the AN500 (Zephyr 2.7 has none), the
# AN385's map with the Cortex-M7 and its FPU: core/port/zephyr/boards/arm/tickmark_mps2_an500.
ZEPHYR_BOARD = tickmark_mps2_an500
