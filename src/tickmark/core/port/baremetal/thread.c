/* Threads and mutexes without a scheduler: no thread can be created (TM_REQ_THREADS is not in
 * the caps, so the thread benchmarks skip); a mutex is a flag, which is what a lock costs when
 * nothing else can run. An RTOS port replaces this file (see port/README.md). */
#include "tickmark/osal.h"

int tm_os_thread_create(tm_os_thread *t, void *(*fn)(void *), void *arg)
{
    (void)t;
    (void)fn;
    (void)arg;
    return -1;
}

int tm_os_thread_join(tm_os_thread t)
{
    (void)t;
    return -1;
}

int tm_os_mutex_init(tm_os_mutex *m)
{
    m->locked = 0;
    return 0;
}

int tm_os_mutex_lock(tm_os_mutex *m)
{
    if (m->locked)
        return -1; /* would wait forever: nothing else runs to unlock it */
    m->locked = 1;
    return 0;
}

int tm_os_mutex_unlock(tm_os_mutex *m)
{
    m->locked = 0;
    return 0;
}

int tm_os_mutex_destroy(tm_os_mutex *m)
{
    (void)m;
    return 0;
}
