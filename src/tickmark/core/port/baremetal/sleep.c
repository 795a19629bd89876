/* Sleeping without a scheduler: spin on the clock until the deadline. */
#include "tickmark/osal_prim.h"

int tm_os_sleep_until_ns(uint64_t deadline_ns)
{
    while (tm_os_now_ns() < deadline_ns)
        ;
    return 0;
}
