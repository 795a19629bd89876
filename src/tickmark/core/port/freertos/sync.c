/* Semaphores and message queues on FreeRTOS (osal_prim.h): a semaphore is a counting semaphore
 * (xSemaphoreCreateCounting), a queue a FreeRTOS queue (xQueueCreate: messages copied in and
 * out); both wait with no time limit. FreeRTOS has no condition variables, and no spin locks on
 * one CPU: those create nothing and the benchmarks that need them skip. */
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

tm_os_cond *tm_os_cond_create(void) { return NULL; }
int tm_os_cond_wait(tm_os_cond *c, tm_os_mutex *m)
{
    (void)c;
    (void)m;
    return -1;
}
int tm_os_cond_signal(tm_os_cond *c)
{
    (void)c;
    return -1;
}
void tm_os_cond_destroy(tm_os_cond *c) { (void)c; }
tm_os_spin *tm_os_spin_create(void) { return NULL; }
int tm_os_spin_lock(tm_os_spin *s)
{
    (void)s;
    return -1;
}
int tm_os_spin_unlock(tm_os_spin *s)
{
    (void)s;
    return -1;
}
void tm_os_spin_destroy(tm_os_spin *s) { (void)s; }
