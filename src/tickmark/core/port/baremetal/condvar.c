/* Condition variables and spin locks between threads: none, on bare metal (no threads) and on
 * FreeRTOS (which has neither, and one CPU). Each create returns NULL and the benchmarks that need
 * one skip, naming what is missing. */
#include "tickmark/osal_prim.h"

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
