# Build settings of the bare-metal port. Everything about the machine comes from one board
# description, boards/$(BOARD).mk: compiler, CPU flags, memory map, clock, counter, console.
# The C library is picolibc; its semihosting start-up code passes the command line to main(),
# and stdout and the exit status go to the debugger or emulator.

ifeq ($(BOARD),)
$(error PORT=baremetal needs BOARD=<name>, one of: $(basename $(notdir $(wildcard boards/*.mk))))
endif
ifeq ($(wildcard boards/$(BOARD).mk),)
$(error no board description boards/$(BOARD).mk)
endif
include boards/$(BOARD).mk

O ?= out-$(BOARD)
PORT_BASE :=
# The CPU's own files (arch/$(ARCH)/: the control loop, the kernel-entry loops, the clock chains)
# are used as on an OS, except the time counter: this port's time base
# (port/baremetal/arch/$(BM_ARCH)/) is its clock, so tm_ticks() is the generic one.
ARCH_GENERIC := ticks.c
LIBS := -lm
PORT_EXTRA_SRCS := $(wildcard port/baremetal/arch/$(BM_ARCH)/*.c)
# The console: semihosting (default; arguments, output and exit through the debugger or QEMU),
# or a UART driver file console/$(BM_CONSOLE).c (output only; arguments compiled in).
BM_CONSOLE ?= semihost
ifeq ($(BM_CONSOLE),semihost)
BM_LIBC := --oslib=semihost --crt0=semihost
else
BM_LIBC := -DTM_BM_UART_ADDR=$(BM_UART_ADDR)u
PORT_EXTRA_SRCS += port/baremetal/console/$(BM_CONSOLE).c
endif
# What the kernel-entry benchmarks (trap.*) use of the board: the interrupt they raise (an NVIC
# line, a GIC SGI), the GIC, the CLINT, an address with nothing there; 0 or -1: the board has none.
BM_SOFT_IRQ ?= -1
BM_GIC_DIST ?= 0
BM_GIC_CPU ?= 0
BM_CLINT ?= 0
BM_FAULT_ADDR ?= 0
# The largest cache, in bytes, that a flush before a cold call must evict (flush.c); 0: none given.
BM_CACHE_BYTES ?= 0
PORT_CFLAGS := $(BM_CPU) --specs=$(BM_SPECS) $(BM_LIBC) \
  -DTM_MAX_GLOBS=256 -DTM_MAX_ITERS=256 -DTM_MAX_INSTANCES=512 \
  -DTM_BM_CLOCK_HZ=$(BM_CLOCK_HZ)u -DTM_BM_COUNTER_ADDR=$(BM_COUNTER_ADDR)u -DTM_BM_COUNTER_HZ=$(BM_COUNTER_HZ)u \
  -DTM_BM_SOFT_IRQ=$(BM_SOFT_IRQ) -DTM_BM_GIC_DIST=$(BM_GIC_DIST)u -DTM_BM_GIC_CPU=$(BM_GIC_CPU)u \
  -DTM_BM_CLINT=$(BM_CLINT)u -DTM_BM_FAULT_ADDR=$(BM_FAULT_ADDR)u -DTM_BM_CACHE_BYTES=$(BM_CACHE_BYTES)u
PORT_LDFLAGS := -Wl,--defsym=__flash=$(BM_FLASH) -Wl,--defsym=__flash_size=$(BM_FLASH_SIZE) \
  -Wl,--defsym=__ram=$(BM_RAM) -Wl,--defsym=__ram_size=$(BM_RAM_SIZE) \
  -Wl,--defsym=__stack_size=$(BM_STACK_SIZE) -Wl,--defsym=__heap_end=$(BM_RAM)+$(BM_RAM_SIZE)-$(BM_STACK_SIZE)
