/* A semaphore posted from an interrupt handler (irq.wake): bare metal has no semaphores
 * (sync.c), so there is none to post; an RTOS port replaces this file. */
#include "tickmark/osal_prim.h"

int tm_os_sem_post_from_isr(tm_os_sem *s)
{
    (void)s;
    return -1;
}
