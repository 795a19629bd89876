/* Threads and mutexes on FreeRTOS. A thread is a task created by xTaskCreate at the caller's
 * priority (so the two take turns: a yield switches between them) with a stack of
 * TM_RTOS_THREAD_STACK bytes, plus a record (from the same heap) that holds its function and
 * whether it has ended. FreeRTOS has no join: the task, once its function returns, marks the
 * record, gives a notification (slot TM_RTOS_JOIN_SLOT) to the task waiting in join, if any,
 * and suspends itself; join waits for that notification, then deletes the task (which frees its
 * stack and control block at once, not later in the idle task) and the record.
 * A mutex is a FreeRTOS mutex (xSemaphoreCreateMutex: priority inheritance), taken with no
 * time limit. */
#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

#include "rtos.h"
#include "tickmark/osal.h"

struct tm_rtos_thread {
    TaskHandle_t task;
    TaskHandle_t joiner; /* the task waiting in join, or NULL */
    void *(*fn)(void *);
    void *arg;
    int done;
};

static void thread_task(void *p)
{
    struct tm_rtos_thread *t = p;
    TaskHandle_t joiner;
    t->fn(t->arg);
    taskENTER_CRITICAL();
    t->done = 1;
    joiner = t->joiner;
    taskEXIT_CRITICAL();
    if (joiner)
        xTaskNotifyGiveIndexed(joiner, TM_RTOS_JOIN_SLOT);
    vTaskSuspend(NULL); /* until join deletes the task */
}

int tm_os_thread_create(tm_os_thread *out, void *(*fn)(void *), void *arg)
{
    struct tm_rtos_thread *t = pvPortMalloc(sizeof *t);
    if (!t)
        return -1;
    t->joiner = NULL;
    t->fn = fn;
    t->arg = arg;
    t->done = 0;
    if (xTaskCreate(thread_task, "thread", TM_RTOS_THREAD_STACK / sizeof(StackType_t), t, uxTaskPriorityGet(NULL),
                    &t->task) != pdPASS) {
        vPortFree(t);
        return -1;
    }
    *out = t;
    return 0;
}

int tm_os_thread_join(tm_os_thread t)
{
    int done;
    taskENTER_CRITICAL();
    done = t->done;
    if (!done)
        t->joiner = xTaskGetCurrentTaskHandle();
    taskEXIT_CRITICAL();
    while (!done) {
        ulTaskNotifyTakeIndexed(TM_RTOS_JOIN_SLOT, pdTRUE, portMAX_DELAY);
        taskENTER_CRITICAL();
        done = t->done;
        taskEXIT_CRITICAL();
    }
    vTaskDelete(t->task);
    vPortFree(t);
    return 0;
}

int tm_os_mutex_init(tm_os_mutex *m)
{
    m->handle = xSemaphoreCreateMutex();
    return m->handle ? 0 : -1;
}

int tm_os_mutex_lock(tm_os_mutex *m)
{
    return xSemaphoreTake((SemaphoreHandle_t)m->handle, portMAX_DELAY) == pdTRUE ? 0 : -1;
}

int tm_os_mutex_unlock(tm_os_mutex *m) { return xSemaphoreGive((SemaphoreHandle_t)m->handle) == pdTRUE ? 0 : -1; }

int tm_os_mutex_destroy(tm_os_mutex *m)
{
    vSemaphoreDelete((SemaphoreHandle_t)m->handle);
    m->handle = NULL;
    return 0;
}
