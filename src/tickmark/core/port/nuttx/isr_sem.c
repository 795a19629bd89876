/* A semaphore posted from an interrupt handler on NuttX (irq.wake): sem_post() is allowed there;
 * a task it readies of higher priority than the one interrupted runs when the kernel leaves the
 * interrupt. */
#include "tickmark/osal_prim.h"

int tm_os_sem_post_from_isr(tm_os_sem *s) { return tm_os_sem_post(s); }
