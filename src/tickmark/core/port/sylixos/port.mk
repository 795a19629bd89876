# Build settings of the SylixOS port: the core linked into the board support package's image as
# its first user thread (t_main), with the kernel library libsylixos. SYLIXOS_EXPORT names what
# a SylixOS build leaves for the core (port/README.md, "SylixOS"): the kernel library, the BSP's
# objects, its link script, and a tickmark.mk beside them with the kernel's CPU flags, include
# folders, objects, libraries and link script (SYLIXOS_CPUFLAGS, SYLIXOS_INCLUDES, SYLIXOS_OBJS,
# SYLIXOS_LIBS, SYLIXOS_LDSCRIPT). By hand:
#   make PORT=sylixos BOARD=orangepi-pc SYLIXOS_EXPORT=DIR
# SylixOS is POSIX inside (pthreads, semaphores, message queues): the benchmarks and those
# primitives are port/posix's files, as on Linux and NuttX. The clock and its counter are the
# bare-metal port's (the PMU's cycle counter: SylixOS's clock_gettime counts ticks); the command
# line and the exit status go through semihosting, as on NuttX (port/nuttx/entry.c); the records
# come out of SylixOS's console (the board's UART).

ifeq ($(BOARD),)
$(error PORT=sylixos needs BOARD=<name>, one of: $(basename $(notdir $(wildcard boards/*.mk))))
endif
include boards/$(BOARD).mk
ifeq ($(wildcard $(SYLIXOS_EXPORT)/tickmark.mk),)
$(error PORT=sylixos needs SYLIXOS_EXPORT=DIR, a SylixOS build made by tickmark (no $(SYLIXOS_EXPORT)/tickmark.mk))
endif
include $(SYLIXOS_EXPORT)/tickmark.mk

O ?= out-sylixos-$(BOARD)
PORT_BASE := posix
# the CPU's own arch/ files (the two-instruction control loop among them), as bare metal has them;
# the time counter is the board's clock (tm_ticks() the generic one)
ARCH_GENERIC := ticks.c
LIBS := $(SYLIXOS_OBJS) -Wl,--start-group $(SYLIXOS_LIBS) -Wl,--end-group
PORT_BORROW := port/baremetal/flush.c port/baremetal/scratch.c port/baremetal/time.c port/baremetal/counters.c port/baremetal/isolate.c port/baremetal/pages.c \
  port/baremetal/memory.c port/baremetal/noexec.c port/nuttx/entry.c port/nuttx/process.c port/nuttx/prim_proc.c \
  port/nuttx/cpu.c port/nuttx/sleep.c
PORT_DROP := memhint.c usage.c exec.c
PORT_EXTRA_SRCS := port/baremetal/arch/$(BM_ARCH)/timebase.c port/nuttx/arch/$(BM_ARCH)/semihost.c
PORT_CFLAGS := $(SYLIXOS_CPUFLAGS) -mthumb $(SYLIXOS_INCLUDES) -DSYLIXOS -Iport/baremetal \
  -DTM_MAX_GLOBS=256 -DTM_MAX_ITERS=256 -DTM_MAX_INSTANCES=512 \
  -DTM_BM_CLOCK_HZ=$(BM_CLOCK_HZ)u -DTM_BM_COUNTER_ADDR=$(BM_COUNTER_ADDR)u -DTM_BM_COUNTER_HZ=$(BM_COUNTER_HZ)u -DTM_BM_CACHE_BYTES=$(or $(BM_CACHE_BYTES),0)u \
  -DTM_BM_SOFT_IRQ=$(or $(BM_SOFT_IRQ),-1) -DTM_BM_GIC_DIST=$(or $(BM_GIC_DIST),0)u
PORT_LDFLAGS := -nostdlib -nostartfiles -Wl,--entry=tm_sylixos_boot -Wl,-T,$(SYLIXOS_LDSCRIPT) -L$(SYLIXOS_EXPORT)/bsp \
  -Wl,--no-warn-rwx-segments
