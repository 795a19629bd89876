# QEMU's "virt" machine with a Cortex-A53, started at EL1 with the MMU off. Memory: RAM from
# 0x40000000; the image takes 2 MiB of it, data, heap and stack 62 MiB. Counter: the PMU cycle
# counter, timed against the generic timer. Console: semihosting; a PL011 UART at 0x09000000.
BM_ARCH = aarch64
CROSS_COMPILE = aarch64-linux-gnu-
BM_SPECS = /usr/lib/picolibc/aarch64-linux-gnu/picolibc.specs
BM_CPU = -mcpu=cortex-a53
BM_FLASH = 0x40000000
BM_FLASH_SIZE = 0x00200000
BM_RAM = 0x40200000
BM_RAM_SIZE = 0x03e00000
BM_STACK_SIZE = 0x00010000
BM_CLOCK_HZ = 1000000000
BM_COUNTER_ADDR = 0
BM_COUNTER_HZ = 62500000
QEMU = qemu-system-aarch64 -M virt -cpu cortex-a53 -m 128M -nic none
PACKAGES = gcc-aarch64-linux-gnu picolibc-aarch64-linux-gnu qemu-system-arm
