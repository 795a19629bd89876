/* Real-time priority on Zephyr: the calling thread at the highest preemptible priority (the
 * kernel's own, as the POSIX layer maps its SCHED_RR priorities onto them); normal: the main
 * thread's. Nothing is ever paged out. */
#include <zephyr.h>

#include "tickmark/osal_prim.h"

int tm_os_set_rt_priority(int prio, const char **why)
{
    (void)why;
    /* -1: the highest there is, above the main thread's 0 (a cooperative priority, so that a post
     * from a preemptible thread runs the waiter at once); else the highest preemptible one */
    k_thread_priority_set(k_current_get(), prio < 0 ? -1 : 0);
    return 0;
}

int tm_os_set_normal_priority(void)
{
    k_thread_priority_set(k_current_get(), CONFIG_MAIN_THREAD_PRIORITY);
    return 0;
}

int tm_os_lock_memory(void) { return 0; }
void tm_os_unlock_memory(void) {}
