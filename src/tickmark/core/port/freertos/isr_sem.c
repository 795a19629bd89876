/* A semaphore posted from an interrupt handler on FreeRTOS (irq.wake): xSemaphoreGiveFromISR,
 * and portYIELD_FROM_ISR when it readied a task of higher priority than the one interrupted,
 * so that the handler returns into that task (on a Cortex-M: PendSV, taken after the
 * handler). */
#include "FreeRTOS.h"
#include "semphr.h"

#include "tickmark/osal_prim.h"

int tm_os_sem_post_from_isr(tm_os_sem *s)
{
    BaseType_t woken = pdFALSE;
    if (xSemaphoreGiveFromISR((SemaphoreHandle_t)s, &woken) != pdTRUE)
        return -1;
    portYIELD_FROM_ISR(woken);
    return 0;
}
