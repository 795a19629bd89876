/* The FreeRTOS configuration tickmark-core is measured with, the same on every board: preemptive,
 * time-sliced, a 1 kHz tick, mutexes with priority inheritance, counting semaphores, queues,
 * two task-notification slots (the second joins threads), heap_4 of TM_RTOS_HEAP_SIZE bytes
 * (the board's RTOS_HEAP_SIZE), no software timers, no run-time statistics, no trace hooks.
 * Two settings are the build's choice (port.mk: RTOS_STACK_CHECK, RTOS_ASSERT; the target's
 * ?stack_check=N&assert=1), because they move what is measured: the stack overflow check,
 * method TM_RTOS_STACK_CHECK (0 none, 1 the stack pointer at each switch (the default), 2 also
 * the pattern at the stack's end, for which the kernel fills every new task's stack), and
 * configASSERT (TM_RTOS_ASSERT=1: checks in every kernel call that is measured; off by default).
 * What differs between CPUs (interrupt priorities, the tick interrupt, handler names) is in
 * arch/<arch>/freertos_arch.h; the figures of the board come as -D definitions from port.mk. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configCPU_CLOCK_HZ (TM_BM_CLOCK_HZ)
#define configTICK_RATE_HZ 1000
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configUSE_TICKLESS_IDLE 0
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE ((unsigned short)(2048 / sizeof(StackType_t)))
#define configMAX_TASK_NAME_LEN 12
#define configUSE_16_BIT_TICKS 0
#define configIDLE_SHOULD_YIELD 1
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 2
#define configQUEUE_REGISTRY_SIZE 0
#define configENABLE_BACKWARD_COMPATIBILITY 0
#define configNUM_THREAD_LOCAL_STORAGE_POINTERS 0
#define configUSE_MINI_LIST_ITEM 1
#define configHEAP_CLEAR_MEMORY_ON_FREE 0

#define configSUPPORT_STATIC_ALLOCATION 0
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configTOTAL_HEAP_SIZE ((size_t)(TM_RTOS_HEAP_SIZE))
#define configAPPLICATION_ALLOCATED_HEAP 0

#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#ifndef TM_RTOS_STACK_CHECK
#define TM_RTOS_STACK_CHECK 1
#endif
#define configCHECK_FOR_STACK_OVERFLOW TM_RTOS_STACK_CHECK
#define configUSE_MALLOC_FAILED_HOOK 0
#define configUSE_DAEMON_TASK_STARTUP_HOOK 0

#define configGENERATE_RUN_TIME_STATS 0
#define configUSE_TRACE_FACILITY 0
#define configUSE_STATS_FORMATTING_FUNCTIONS 0

#define configUSE_CO_ROUTINES 0
#define configUSE_TIMERS 0

#define configUSE_TASK_NOTIFICATIONS 1
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 0
#define configUSE_COUNTING_SEMAPHORES 1
#define configUSE_QUEUE_SETS 0

#define INCLUDE_vTaskPrioritySet 1
#define INCLUDE_uxTaskPriorityGet 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelayUntil 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1
#define INCLUDE_xTaskGetSchedulerState 1

/* The notification slot a thread's end is signalled on (slot 0 stays free for applications). */
#define TM_RTOS_JOIN_SLOT 1

#if TM_RTOS_ASSERT
void tm_rtos_assert_failed(const char *file, int line);
#define configASSERT(x)                                                                                 \
    do {                                                                                                \
        if (!(x))                                                                                       \
            tm_rtos_assert_failed(__FILE__, __LINE__);                                                  \
    } while (0)
#else
#define configCHECK_HANDLER_INSTALLATION 0
#endif

#include "freertos_arch.h"

#endif
