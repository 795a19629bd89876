/* What the kernel calls back: a stack overflow (configCHECK_FOR_STACK_OVERFLOW) and, in a build
 * with -DTM_RTOS_ASSERT=1, a failed configASSERT. Either ends the program with status 3 after
 * one line on stderr, so the harness reports the benchmark that was running as crashed with
 * that line as the reason. */
#include <stdio.h>
#include <stdlib.h>

#include "FreeRTOS.h"
#include "task.h"

void vApplicationStackOverflowHook(TaskHandle_t task, char *name);
void tm_rtos_assert_failed(const char *file, int line);

void vApplicationStackOverflowHook(TaskHandle_t task, char *name)
{
    (void)task;
    fprintf(stderr, "FreeRTOS: stack overflow in task %s\n", name);
    exit(3);
}

void tm_rtos_assert_failed(const char *file, int line)
{
    fprintf(stderr, "FreeRTOS: configASSERT failed at %s:%d\n", file, line);
    exit(3);
}
