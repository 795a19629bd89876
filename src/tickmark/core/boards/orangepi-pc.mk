# Xunlong Orange Pi PC (Allwinner H3): one Cortex-A7 (ARMv7-A, VFPv4 and NEON) of the SoC's four.
# Bare metal starts in the supervisor mode with the MMU off, in Thumb-2, the FPU on (picolibc's
# start-up). Memory: 1 GiB of SDRAM from 0x40000000; the image takes 2 MiB of it, data, heap and
# stack 62 MiB. Counter: the PMU cycle counter, timed against the generic timer (62.5 MHz under
# QEMU). Console: semihosting; the first UART (a 16550) at 0x01C28000.
BM_ARCH = armv7a
CROSS_COMPILE = arm-none-eabi-
BM_SPECS = /usr/lib/picolibc/arm-none-eabi/picolibc.specs
BM_CPU = -mcpu=cortex-a7 -mthumb -mfpu=neon-vfpv4 -mfloat-abi=hard
BM_FLASH = 0x40000000
BM_FLASH_SIZE = 0x00200000
BM_RAM = 0x40200000
BM_RAM_SIZE = 0x03e00000
BM_STACK_SIZE = 0x00010000
BM_CLOCK_HZ = 1008000000
BM_COUNTER_ADDR = 0
BM_COUNTER_HZ = 62500000
# The cache a flush evicts before a cold call: the H3's shared L2 of 512 KiB.
BM_CACHE_BYTES = 0x00080000
# The GIC-400 (a GICv2); trap.irq raises its software-generated interrupt 1 to this CPU.
BM_GIC_DIST = 0x01C81000
BM_GIC_CPU = 0x01C82000
BM_SOFT_IRQ = 1
QEMU = qemu-system-arm -M orangepi-pc
PACKAGES = gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm
# Linux (os=linux, --kernel IMAGE): Debian's armhf multiplatform kernel (armmp) with the board's
# device tree from the same package (LINUX_DTB, found beside the kernel in the cache), one CPU
# (maxcpus=1: the machine always has the SoC's four; the others stay off), its 1 GiB, console on
# the first UART; the core linked statically with the armhf Linux cross compiler, busybox from
# Debian's busybox-static:armhf (./bootstrap test unpacks the kernel and busybox into the cache).
LINUX_CONSOLE = ttyS0
LINUX_MEM = 1G
LINUX_SMP = 4
LINUX_APPEND = maxcpus=1
LINUX_DTB = sun8i-h3-orangepi-pc.dtb
LINUX_CROSS_COMPILE = arm-linux-gnueabihf-
LINUX_DEB_ARCH = armhf
LINUX_DEB_FLAVOUR = armmp
LINUX_PACKAGES = qemu-system-arm gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
# SylixOS (os=sylixos): the Allwinner H3 BSP of SylixOS's minimum system, with its QEMU patch
# (targets/sylixos.py builds the kernel library and the BSP; the core is the BSP's first thread).
SYLIXOS_BSP = Allwinner-H3-Bsp
