/* Sleeping without a scheduler: spin on the clock until the deadline (so a sleep ends within
 * one step of the clock). */
#include "tickmark/osal_prim.h"

int tm_os_sleep_until_ns(uint64_t deadline_ns)
{
    while (tm_os_now_ns() < deadline_ns)
        ;
    return 0;
}

uint64_t tm_os_sleep_res_ns(void) { return tm_os_clock_res_ns(); }
