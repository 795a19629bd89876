# ARM MPS2 FPGA board with the AN385 image: Cortex-M3 (no FPU: soft float), 25 MHz.
# Memory: ZBT SSRAM1 4 MiB at 0 (vectors, code, constants), SSRAM2/3 4 MiB at 0x20000000
# (data, heap, stack). Counter: the FPGAIO COUNTER at 0x40028018 (32-bit, core clock).
# Console: semihosting; UART0 is a CMSDK UART at 0x40004000.
BM_ARCH = armv7m
CROSS_COMPILE = arm-none-eabi-
BM_SPECS = /usr/lib/picolibc/arm-none-eabi/picolibc.specs
BM_CPU = -mcpu=cortex-m3 -mthumb
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
QEMU = qemu-system-arm -M mps2-an385
PACKAGES = gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm
# FreeRTOS (os=freertos): the kernel's Cortex-M3 port; 2 MiB of the RAM for its heap.
FREERTOS_PORT = ARM_CM3
RTOS_HEAP_SIZE = 0x00200000
# Zephyr (os=zephyr): Zephyr's own mps2_an385 board.
ZEPHYR_BOARD = mps2_an385
