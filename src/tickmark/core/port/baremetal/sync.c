/* Semaphores and message queues between threads: bare metal has no threads, so there are none
 * (each create returns NULL and the benchmarks that need one skip). An RTOS port replaces this
 * file. */
#include "tickmark/osal_prim.h"

tm_os_sem *tm_os_sem_create(unsigned value)
{
    (void)value;
    return NULL;
}
int tm_os_sem_post(tm_os_sem *s)
{
    (void)s;
    return -1;
}
int tm_os_sem_wait(tm_os_sem *s)
{
    (void)s;
    return -1;
}
void tm_os_sem_destroy(tm_os_sem *s) { (void)s; }
tm_os_queue *tm_os_queue_create(unsigned depth, unsigned msg_bytes)
{
    (void)depth;
    (void)msg_bytes;
    return NULL;
}
int tm_os_queue_send(tm_os_queue *q, const void *msg)
{
    (void)q;
    (void)msg;
    return -1;
}
int tm_os_queue_recv(tm_os_queue *q, void *msg)
{
    (void)q;
    (void)msg;
    return -1;
}
void tm_os_queue_destroy(tm_os_queue *q) { (void)q; }
