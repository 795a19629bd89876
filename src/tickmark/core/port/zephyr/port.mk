# Build settings of the Zephyr port: the core as a Zephyr application (app/CMakeLists.txt), built
# by Zephyr's CMake with the board's Zephyr definition (boards/$(BOARD).mk: ZEPHYR_BOARD) and
# tickmark's benchmark configuration (app/prj.conf). Zephyr's build compiles the files this
# port lists (`make PORT=zephyr BOARD=... print-build`, read by app/CMakeLists.txt) with its own
# CPU flags and C library; the harness configures, builds and caches the image (targets/zephyr.py).
# The benchmarks and the POSIX primitives Zephyr's POSIX layer has are port/posix's files, as on
# Linux and NuttX (mutexes, semaphores, condition variables, message queues); what differs is
# here: threads need a stack the caller provides, sched_yield is in <posix_sched.h>, no spin
# locks in the POSIX layer (the kernel's), no files, pipes, sockets, signals or processes.

ifeq ($(BOARD),)
$(error PORT=zephyr needs BOARD=<name>, one of: $(basename $(notdir $(wildcard boards/*.mk))))
endif
include boards/$(BOARD).mk

O ?= out-zephyr-$(BOARD)
PORT_BASE := posix
# the CPU's own arch/ files, as bare metal has them; the time counter is the board's clock
ARCH_GENERIC := ticks.c
# Zephyr's minimal C library lacks the mathematical functions, qsort and strtok: picolibc's C
# library for the board's CPU (the bare-metal build's) supplies them, linked after Zephyr's.
# libgcc again after it: on a CPU without an FPU its mathematics call the compiler's soft-float
# helpers.
LIBS := $(dir $(BM_SPECS))lib/$(shell $(CROSS_COMPILE)gcc $(BM_CPU) -print-multi-directory)/libc.a -lgcc
# From the bare-metal port: the board's clock, counters, no processes (each benchmark is called
# directly), pages; what Zephyr's POSIX layer lacks (absent.c: files, pipes, sockets, signals,
# processes, OS calls), no scratch directory, no program to exec. From the NuttX port: the entry
# (arguments and exit status through semihosting), started from Zephyr's main thread (main.c),
# and one CPU with sched_yield() (sched.h here says where Zephyr declares it).
PORT_BORROW := port/baremetal/flush.c port/baremetal/time.c port/baremetal/counters.c port/baremetal/isolate.c port/baremetal/pages.c \
  port/baremetal/noexec.c port/baremetal/absent.c port/baremetal/scratch.c port/nuttx/entry.c port/nuttx/cpu.c
PORT_DROP := memhint.c usage.c exec.c process.c prim_proc.c prim_child.c file.c prim_signal.c prim_sock.c \
  prim_misc.c syscall.c
# The software interrupt of irq.* (irq.c): per CPU, its line and the store that raises it
# (arch/$(BM_ARCH)/irq_line.c); the board's ZEPHYR_SOFT_IRQ where Zephyr's interrupt controller
# differs from the bare-metal one, else its BM_SOFT_IRQ.
PORT_EXTRA_SRCS := port/baremetal/arch/$(BM_ARCH)/timebase.c port/nuttx/arch/$(BM_ARCH)/semihost.c \
  port/zephyr/arch/$(BM_ARCH)/irq_line.c
PORT_CFLAGS := -Iport/baremetal -Iport/nuttx -DTM_ZEPHYR_SOFT_IRQ=$(or $(ZEPHYR_SOFT_IRQ),$(BM_SOFT_IRQ),-1) \
  -DTM_MAX_GLOBS=256 -DTM_MAX_ITERS=256 -DTM_MAX_INSTANCES=512 \
  -DTM_BM_CLOCK_HZ=$(BM_CLOCK_HZ)u -DTM_BM_COUNTER_ADDR=$(BM_COUNTER_ADDR)u -DTM_BM_COUNTER_HZ=$(BM_COUNTER_HZ)u -DTM_BM_CACHE_BYTES=$(or $(BM_CACHE_BYTES),0)u
