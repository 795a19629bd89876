/* Real-time priority on FreeRTOS: every task is scheduled by fixed priority, so "real time" is
 * the highest priority there is (configMAX_PRIORITIES - 1), set with vTaskPrioritySet (a negative
 * prio counts down from it: -2 is the one below, no lower than the core's own); normal is
 * the core's own, TM_RTOS_PRIORITY. Memory is never paged out: locking it does nothing. */
#include "FreeRTOS.h"
#include "task.h"

#include "rtos.h"
#include "tickmark/osal_prim.h"

int tm_os_set_rt_priority(int prio, const char **why)
{
    int level = prio < 0 ? (int)configMAX_PRIORITIES + prio : (int)configMAX_PRIORITIES - 1;
    if (level <= (int)TM_RTOS_PRIORITY) {
        if (why)
            *why = "no task priority that high";
        return -1;
    }
    vTaskPrioritySet(NULL, (UBaseType_t)level);
    return 0;
}

int tm_os_set_normal_priority(void)
{
    vTaskPrioritySet(NULL, TM_RTOS_PRIORITY);
    return 0;
}

int tm_os_lock_memory(void) { return 0; }
void tm_os_unlock_memory(void) {}
