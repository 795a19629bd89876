/* Semaphores and message queues on FreeRTOS (osal_prim.h): a semaphore is a counting semaphore
 * (xSemaphoreCreateCounting), a queue a FreeRTOS queue (xQueueCreate: messages copied in and
 * out); both wait with no time limit. (FreeRTOS has no condition variables or spin locks:
 * port/baremetal/condvar.c says so.) */
#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"

#include "tickmark/osal_prim.h"

#define SEM_MAX 0x7fffffffu

tm_os_sem *tm_os_sem_create(unsigned value) { return (tm_os_sem *)xSemaphoreCreateCounting(SEM_MAX, value); }
int tm_os_sem_post(tm_os_sem *s) { return xSemaphoreGive((SemaphoreHandle_t)s) == pdTRUE ? 0 : -1; }
int tm_os_sem_wait(tm_os_sem *s) { return xSemaphoreTake((SemaphoreHandle_t)s, portMAX_DELAY) == pdTRUE ? 0 : -1; }

void tm_os_sem_destroy(tm_os_sem *s)
{
    if (s)
        vSemaphoreDelete((SemaphoreHandle_t)s);
}

tm_os_queue *tm_os_queue_create(unsigned depth, unsigned msg_bytes)
{
    return (tm_os_queue *)xQueueCreate(depth, msg_bytes);
}

int tm_os_queue_send(tm_os_queue *q, const void *msg)
{
    return xQueueSend((QueueHandle_t)q, msg, portMAX_DELAY) == pdTRUE ? 0 : -1;
}

int tm_os_queue_recv(tm_os_queue *q, void *msg)
{
    return xQueueReceive((QueueHandle_t)q, msg, portMAX_DELAY) == pdTRUE ? 0 : -1;
}

void tm_os_queue_destroy(tm_os_queue *q)
{
    if (q)
        vQueueDelete((QueueHandle_t)q);
}
