/* A semaphore posted from an interrupt handler on Zephyr (irq.wake): the POSIX layer's sem_post()
 * is the kernel's k_sem_give(), which a handler may call; a thread it readies of higher priority
 * than the one interrupted runs when the kernel leaves the interrupt. */
#include "tickmark/osal_prim.h"

int tm_os_sem_post_from_isr(tm_os_sem *s) { return tm_os_sem_post(s); }
