/* A semaphore posted from an interrupt handler on SylixOS (irq.wake): sem_post() is
 * API_SemaphoreCPost(), which a handler may call; a thread it readies of higher priority than the
 * one interrupted runs when the kernel leaves the interrupt (API_InterExit). */
#include "tickmark/osal_prim.h"

int tm_os_sem_post_from_isr(tm_os_sem *s) { return tm_os_sem_post(s); }
