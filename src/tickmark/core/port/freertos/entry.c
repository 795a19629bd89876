/* The program's entry on FreeRTOS: main() (called by picolibc's start-up code with the command
 * line read through semihosting, or none) creates one task that runs the core's command line,
 * tm_main(), and starts the scheduler; the task ends the program with the core's exit status
 * once tm_main returns. The task runs at priority TM_RTOS_PRIORITY, above the idle task; the
 * threads a benchmark creates get the same priority (port/freertos/thread.c), so they take turns
 * with it. Its stack is the board's main stack size (BM_STACK_SIZE, 64 KiB on the boards here:
 * the runner keeps its tables in static storage, but a record is built in a 16 KiB buffer on
 * the stack). The clock must be other than SysTick, which the kernel takes for its tick. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "rtos.h"
#include "runner.h"
#include "timebase.h"

static int main_argc;
static char **main_argv;

static void core_task(void *unused)
{
    int rc;
    (void)unused;
    rc = tm_main(main_argc, main_argv);
    fflush(stdout);
    exit(rc);
}

int main(int argc, char **argv)
{
    main_argc = argc;
    main_argv = argv;
    if (strcmp(tm_bm_timebase_get()->name, "systick") == 0) { /* FreeRTOS reprograms it for its tick */
        fputs("tickmark-core: FreeRTOS needs SysTick for its tick, and this board has no other clock: "
              "it needs the DWT cycle counter or a board counter (BM_COUNTER_ADDR)\n", stderr);
        return 1;
    }
    if (xTaskCreate(core_task, "tickmark", TM_RTOS_MAIN_STACK / sizeof(StackType_t), NULL, TM_RTOS_PRIORITY, NULL) !=
        pdPASS) {
        fputs("tickmark-core: cannot create the core's task (heap too small?)\n", stderr);
        return 1;
    }
    vTaskStartScheduler();
    fputs("tickmark-core: the FreeRTOS scheduler did not start\n", stderr);
    return 1;
}
