/* Threads and mutexes from Zephyr's POSIX layer. pthread_create needs an attribute with a stack
 * the caller provides (Zephyr 2.7 refuses a NULL attribute): each thread takes one of a pool of
 * stacks (CONFIG_MAX_PTHREAD_COUNT of CONFIG_TM_THREAD_STACK_SIZE bytes: app/prj.conf), given
 * back when it is joined. A new thread gets its creator's priority, as a Linux or NuttX thread
 * inherits it (the POSIX layer's default is its lowest priority). Zephyr 2.7's pthread_join
 * returns once the thread has said it exited, before the kernel has ended it, and never gives
 * its slot back to the layer's pool of CONFIG_MAX_PTHREAD_COUNT threads: the join here also
 * waits for the kernel's thread to end (k_thread_join) and then marks the slot free, as a later
 * release of the layer does. Mutexes are pthread_mutex_*, the same calls as
 * port/posix/thread.c. */
#include <kernel.h>
#include <pthread.h>

#include "tickmark/osal.h"

#define TM_ZEPHYR_THREADS CONFIG_MAX_PTHREAD_COUNT
#define TM_ZEPHYR_THREAD_STACK CONFIG_TM_THREAD_STACK_SIZE

static K_THREAD_STACK_ARRAY_DEFINE(stacks, TM_ZEPHYR_THREADS, TM_ZEPHYR_THREAD_STACK);
static pthread_t owner[TM_ZEPHYR_THREADS];
static unsigned char in_use[TM_ZEPHYR_THREADS];

int tm_os_thread_create(tm_os_thread *t, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    struct sched_param param;
    int slot, prio = k_thread_priority_get(k_current_get()), policy = prio < 0 ? SCHED_FIFO : SCHED_RR;
    for (slot = 0; slot < TM_ZEPHYR_THREADS && in_use[slot]; slot++)
        ;
    if (slot == TM_ZEPHYR_THREADS)
        return -1;
    /* the POSIX layer's numbering of the kernel's priority (its posix_to_zephyr_priority, inverted) */
    param.sched_priority = prio < 0 ? -prio - 1 : CONFIG_NUM_PREEMPT_PRIORITIES - prio;
    if (pthread_attr_init(&attr) != 0
        || pthread_attr_setstack(&attr, stacks[slot], K_THREAD_STACK_SIZEOF(stacks[slot])) != 0
        || pthread_attr_setschedpolicy(&attr, policy) != 0 || pthread_attr_setschedparam(&attr, &param) != 0
        || pthread_create(t, &attr, fn, arg) != 0)
        return -1;
    in_use[slot] = 1;
    owner[slot] = *t;
    return 0;
}

int tm_os_thread_join(tm_os_thread t)
{
    int slot;
    struct posix_thread *pt = (struct posix_thread *)t;
    if (pthread_join(t, NULL) != 0 || k_thread_join(&pt->thread, K_FOREVER) != 0)
        return -1;
    pt->state = PTHREAD_TERMINATED;
    for (slot = 0; slot < TM_ZEPHYR_THREADS; slot++)
        if (in_use[slot] && owner[slot] == t)
            in_use[slot] = 0;
    return 0;
}

int tm_os_mutex_init(tm_os_mutex *m) { return pthread_mutex_init(m, NULL) == 0 ? 0 : -1; }
int tm_os_mutex_lock(tm_os_mutex *m) { return pthread_mutex_lock(m) == 0 ? 0 : -1; }
int tm_os_mutex_unlock(tm_os_mutex *m) { return pthread_mutex_unlock(m) == 0 ? 0 : -1; }
int tm_os_mutex_destroy(tm_os_mutex *m) { return pthread_mutex_destroy(m) == 0 ? 0 : -1; }
