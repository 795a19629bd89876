# Build settings of the NuttX port: the core as a NuttX application, linked with the kernel's
# libraries into one image that boots on the board (boards/$(BOARD).mk: NUTTX_BOARD names the
# kernel's board and base configuration). NUTTX_EXPORT names an export of the kernel (its
# `make export`: include/, libs/) built in the benchmark configuration (benchmark.config), with
# a tickmark.mk beside it: the kernel's CPU flags and defines, its libraries and its link script.
# The harness builds and caches such exports (targets/nuttx.py); by hand:
#   make PORT=nuttx BOARD=virt-aarch64 NUTTX_EXPORT=DIR
# The benchmarks and the POSIX primitives are port/posix's files, as on Linux (threads, mutexes,
# semaphores, message queues, files, pipes, sockets, signals); the clock and its counter are the
# bare-metal port's (the board's cycle or instruction counter: NuttX's clock_gettime counts ticks).

ifeq ($(BOARD),)
$(error PORT=nuttx needs BOARD=<name>, one of: $(basename $(notdir $(wildcard boards/*.mk))))
endif
include boards/$(BOARD).mk
ifeq ($(wildcard $(NUTTX_EXPORT)/tickmark.mk),)
$(error PORT=nuttx needs NUTTX_EXPORT=DIR, a NuttX export made by tickmark (no $(NUTTX_EXPORT)/tickmark.mk))
endif
include $(NUTTX_EXPORT)/tickmark.mk

O ?= out-nuttx-$(BOARD)
PORT_BASE := posix
# the CPU's own arch/ files (the two-instruction control loop among them), as bare metal has them;
# the time counter is the board's clock (tm_ticks() the generic one)
ARCH_GENERIC := ticks.c
LIBS := -Wl,--start-group $(NUTTX_LIBS) -Wl,--end-group
PORT_BORROW := port/baremetal/flush.c port/baremetal/time.c port/baremetal/counters.c port/baremetal/isolate.c port/baremetal/pages.c \
  port/baremetal/memory.c port/baremetal/noexec.c
PORT_DROP := memhint.c usage.c exec.c
PORT_EXTRA_SRCS := port/baremetal/arch/$(BM_ARCH)/timebase.c port/nuttx/arch/$(BM_ARCH)/semihost.c \
  port/nuttx/arch/$(BM_ARCH)/irqline.c
PORT_CFLAGS := $(NUTTX_CPUFLAGS) -isystem $(NUTTX_EXPORT)/include -D__NuttX__ $(NUTTX_DEFINES) \
  -ffunction-sections -fdata-sections -Iport/baremetal \
  -DTM_MAX_GLOBS=256 -DTM_MAX_ITERS=256 -DTM_MAX_INSTANCES=512 \
  -DTM_BM_CLOCK_HZ=$(BM_CLOCK_HZ)u -DTM_BM_COUNTER_ADDR=$(BM_COUNTER_ADDR)u -DTM_BM_COUNTER_HZ=$(BM_COUNTER_HZ)u -DTM_BM_CACHE_BYTES=$(or $(BM_CACHE_BYTES),0)u \
  -DTM_BM_SOFT_IRQ=$(or $(BM_SOFT_IRQ),-1) -DTM_BM_GIC_DIST=$(or $(BM_GIC_DIST),0)u -Iport/nuttx
PORT_LDFLAGS := -nostdlib -nostartfiles -Wl,--entry=__start -Wl,-T,$(NUTTX_LDSCRIPT) -Wl,--gc-sections \
  -Wl,--no-warn-rwx-segments
