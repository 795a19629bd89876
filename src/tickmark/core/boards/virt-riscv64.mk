# QEMU's "virt" machine, RV64GC in machine mode, no firmware (-bios none). Memory: RAM from
# 0x80000000; the image takes 2 MiB of it, data, heap and stack 62 MiB. Counter: mcycle, timed
# against the platform timer (10 MHz). Console: semihosting; a 16550 UART at 0x10000000.
BM_ARCH = riscv64
CROSS_COMPILE = riscv64-unknown-elf-
BM_SPECS = /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs
BM_CPU = -march=rv64imafdc_zicsr -mabi=lp64d -mcmodel=medany
BM_FLASH = 0x80000000
BM_FLASH_SIZE = 0x00200000
BM_RAM = 0x80200000
BM_RAM_SIZE = 0x03e00000
BM_STACK_SIZE = 0x00010000
BM_CLOCK_HZ = 1000000000
BM_COUNTER_ADDR = 0
BM_COUNTER_HZ = 10000000
# The CLINT (trap.irq: hart 0's machine software interrupt) and an address with nothing there
# (trap.abort's load access fault: below the CLINT, no device).
BM_CLINT = 0x02000000
BM_FAULT_ADDR = 0x01000000
QEMU = qemu-system-riscv64 -M virt -bios none -m 128M -nic none
PACKAGES = gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc
