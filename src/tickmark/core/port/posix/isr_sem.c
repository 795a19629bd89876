/* A semaphore posted from an interrupt handler (irq.wake): no POSIX port has a handler of the
 * core's (port/posix/irq.c), so nothing calls this. */
#include "tickmark/osal_prim.h"

int tm_os_sem_post_from_isr(tm_os_sem *s)
{
    (void)s;
    return -1;
}
