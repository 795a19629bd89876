/* Sleeping until a deadline of tm_os_now_ns (the board's counter, time.c) on Zephyr: the time
 * left, slept with k_sleep (the wake-up comes on the kernel's tick, as vTaskDelayUntil's does on
 * FreeRTOS). Resolution: the tick (CONFIG_SYS_CLOCK_TICKS_PER_SEC). */
#include <zephyr.h>

#include "tickmark/osal_prim.h"

int tm_os_sleep_until_ns(uint64_t deadline_ns)
{
    uint64_t now = tm_os_now_ns();
    if (deadline_ns > now)
        k_sleep(K_NSEC(deadline_ns - now));
    return 0;
}

uint64_t tm_os_sleep_res_ns(void) { return 1000000000u / CONFIG_SYS_CLOCK_TICKS_PER_SEC; }
