# QEMU's "virt" machine with a Cortex-A53. Bare metal and FreeRTOS start at EL1 with the MMU
# off. Memory: RAM from 0x40000000; the image takes 2 MiB of it, data, heap and stack 62 MiB.
# Counter: the PMU cycle counter, timed against the generic timer. Console: semihosting; a PL011
# UART at 0x09000000.
# The image is linked where it runs (-no-pie: Debian's aarch64-linux-gnu-gcc makes position-
# independent executables unless told otherwise).
BM_ARCH = aarch64
CROSS_COMPILE = aarch64-linux-gnu-
BM_SPECS = /usr/lib/picolibc/aarch64-linux-gnu/picolibc.specs
BM_CPU = -mcpu=cortex-a53 -fno-pie -no-pie
BM_FLASH = 0x40000000
BM_FLASH_SIZE = 0x00200000
BM_RAM = 0x40200000
BM_RAM_SIZE = 0x03e00000
BM_STACK_SIZE = 0x00010000
BM_CLOCK_HZ = 1000000000
BM_COUNTER_ADDR = 0
BM_COUNTER_HZ = 62500000
# The cache a flush evicts before a cold call: a Cortex-A53 cluster's L2 of 1 MiB (QEMU models
# none, so under it the flush changes no count).
BM_CACHE_BYTES = 0x00100000
# The GICv2; trap.irq raises its software-generated interrupt 1 to this CPU.
BM_GIC_DIST = 0x08000000
BM_GIC_CPU = 0x08010000
BM_SOFT_IRQ = 1
QEMU = qemu-system-aarch64 -M virt -cpu cortex-a53 -m 128M -nic none
PACKAGES = gcc-aarch64-linux-gnu picolibc-aarch64-linux-gnu qemu-system-arm
# FreeRTOS (os=freertos): the kernel's ARM_AARCH64 port at EL1 (GUEST), the GICv2 of the virt
# machine, its tick from the virtual timer (interrupt 27); 32 MiB of the RAM for its heap.
FREERTOS_PORT = ARM_AARCH64
RTOS_HEAP_SIZE = 0x02000000
FREERTOS_CFLAGS = -DGUEST -DTM_RTOS_GIC_DIST=0x08000000u -DTM_RTOS_GIC_CPU=0x08010000u -DTM_RTOS_TIMER_IRQ=27
# Linux (os=linux, --kernel IMAGE): the same machine and CPU with 512 MiB and one CPU, console on
# the PL011; the core linked statically with the aarch64 Linux cross compiler; busybox from
# Debian's busybox-static:arm64 and, without --kernel, Debian's arm64 kernel (LINUX_DEB_ARCH:
# ./bootstrap test unpacks both into the cache).
LINUX_CONSOLE = ttyAMA0
LINUX_MEM = 512M
LINUX_CROSS_COMPILE = aarch64-linux-gnu-
LINUX_DEB_ARCH = arm64
LINUX_PACKAGES = qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross
# NuttX (os=nuttx): the kernel's qemu-armv8a board at EL1 on this machine's GICv2, PSCI by HVC;
# its Debian cross compiler's outline atomics would need getauxval, which NuttX lacks.
NUTTX_BOARD = qemu-armv8a:nsh
NUTTX_CONFIG = ARM64_GIC_VERSION=2 ARCH_CHIP_QEMU_WITH_HV=y
NUTTX_EXTRAFLAGS = -mno-outline-atomics
# Zephyr (os=zephyr): Zephyr's qemu_cortex_a53 board, the same CPU on the same machine with the
# GICv3 and the secure world that board is made for (it starts at EL3 and runs at EL1); the
# Debian cross compiler's outline atomics would need getauxval, which Zephyr lacks.
ZEPHYR_BOARD = qemu_cortex_a53
ZEPHYR_QEMU = qemu-system-aarch64 -M virt,secure=on,gic-version=3 -cpu cortex-a53 -m 128M -nic none
ZEPHYR_EXTRAFLAGS = -mno-outline-atomics
# irq.* on Zephyr: the GICv3 has no GICD_SGIR for trap.irq's SGI; the interrupt is SPI 15 (INTID
# 47), wired to no device of the virt machine, made pending in the distributor.
ZEPHYR_SOFT_IRQ = 47
