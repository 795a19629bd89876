# Build settings of the FreeRTOS port: the bare-metal port of the board (compiler, picolibc,
# console, memory map, time base; port/baremetal/port.mk is read first) with the FreeRTOS kernel
# compiled in from the tree FREERTOS_KERNEL (any V10.4 or later; by default the V11.2.0 that
# `./bootstrap test` puts in the cache). The board description names the kernel's port
# (FREERTOS_PORT, a folder of portable/GCC/), any include folder that port needs
# (FREERTOS_PORT_INCLUDE) and the size of the FreeRTOS heap (RTOS_HEAP_SIZE); arch/$(BM_ARCH)/
# holds what the CPU needs besides (interrupt priorities, the tick, a vector table).
# The files here replace the bare-metal port's files of the same name; the others (time base,
# counters, console, arguments, isolation, what is absent) are the bare-metal port's.

O ?= out-freertos-$(BOARD)
include port/baremetal/port.mk
PORT_BASE := baremetal

FREERTOS_KERNEL ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/tickmark/freertos/FreeRTOS-Kernel-V11.2.0
ifeq ($(wildcard $(FREERTOS_KERNEL)/tasks.c),)
$(error no FreeRTOS kernel at FREERTOS_KERNEL=$(FREERTOS_KERNEL) (./bootstrap test fetches V11.2.0; or give FREERTOS_KERNEL=DIR))
endif
ifeq ($(FREERTOS_PORT),)
$(error board $(BOARD) names no FreeRTOS port (FREERTOS_PORT in boards/$(BOARD).mk))
endif
FREERTOS_PORT_DIR := $(FREERTOS_KERNEL)/portable/GCC/$(FREERTOS_PORT)
ifeq ($(wildcard $(FREERTOS_PORT_DIR)/port.c),)
$(error the FreeRTOS kernel at $(FREERTOS_KERNEL) has no port $(FREERTOS_PORT) (portable/GCC/$(FREERTOS_PORT)/port.c))
endif
RTOS_HEAP_SIZE ?= 0x100000
# The settings that move what is measured (FreeRTOSConfig.h): the stack overflow check method
# (2 fills every new task's stack) and configASSERT.
RTOS_STACK_CHECK ?= 1
RTOS_ASSERT ?= 0

PORT_EXTRA_SRCS += $(addprefix $(FREERTOS_KERNEL)/,tasks.c queue.c list.c portable/MemMang/heap_4.c) \
  $(wildcard $(FREERTOS_PORT_DIR)/*.c $(FREERTOS_PORT_DIR)/*.S) \
  $(wildcard port/freertos/arch/$(BM_ARCH)/*.c port/freertos/arch/$(BM_ARCH)/*.S)
PORT_CFLAGS += -Iport/freertos -Iport/freertos/arch/$(BM_ARCH) -I$(FREERTOS_KERNEL)/include -I$(FREERTOS_PORT_DIR) \
  $(addprefix -I$(FREERTOS_PORT_DIR)/,$(FREERTOS_PORT_INCLUDE)) \
  -DTM_RTOS_HEAP_SIZE=$(RTOS_HEAP_SIZE) -DTM_RTOS_MAIN_STACK=$(BM_STACK_SIZE) -DTM_RTOS_PORT=$(FREERTOS_PORT) \
  -DTM_RTOS_STACK_CHECK=$(RTOS_STACK_CHECK) -DTM_RTOS_ASSERT=$(RTOS_ASSERT) $(FREERTOS_CFLAGS)
