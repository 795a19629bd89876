/* Real-time priority and memory locking without a scheduler: there is no priority to raise (the
 * program is the only thing that runs), and nothing is ever paged out. */
#include "tickmark/osal_prim.h"

int tm_os_set_rt_priority(int prio, const char **why)
{
    (void)prio;
    if (why)
        *why = "no scheduler";
    return -1;
}
int tm_os_set_normal_priority(void) { return 0; }
int tm_os_lock_memory(void) { return 0; } /* nothing is ever paged out */
void tm_os_unlock_memory(void) {}
