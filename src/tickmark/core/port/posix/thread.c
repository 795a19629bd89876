/* Threads and mutexes from pthreads. */
#include <pthread.h>

#include "tickmark/osal.h"

int tm_os_thread_create(tm_os_thread *t, void *(*fn)(void *), void *arg)
{
    return pthread_create(t, NULL, fn, arg) == 0 ? 0 : -1;
}

int tm_os_thread_join(tm_os_thread t) { return pthread_join(t, NULL) == 0 ? 0 : -1; }
int tm_os_mutex_init(tm_os_mutex *m) { return pthread_mutex_init(m, NULL) == 0 ? 0 : -1; }
int tm_os_mutex_lock(tm_os_mutex *m) { return pthread_mutex_lock(m) == 0 ? 0 : -1; }
int tm_os_mutex_unlock(tm_os_mutex *m) { return pthread_mutex_unlock(m) == 0 ? 0 : -1; }
int tm_os_mutex_destroy(tm_os_mutex *m) { return pthread_mutex_destroy(m) == 0 ? 0 : -1; }
