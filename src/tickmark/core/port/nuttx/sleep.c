/* Sleeping until a deadline of tm_os_now_ns (the board's counter, time.c) on NuttX (and on
 * SylixOS, whose port borrows this file): the time left, slept with clock_nanosleep on
 * CLOCK_MONOTONIC, the kernel's tick clock (so the wake-up comes on a tick, as vTaskDelayUntil's
 * does on FreeRTOS). Resolution: the tick (clock_getres). */
#include <errno.h>
#include <time.h>

#include "tickmark/osal_prim.h"

int tm_os_sleep_until_ns(uint64_t deadline_ns)
{
    uint64_t now = tm_os_now_ns();
    struct timespec ts;
    if (deadline_ns <= now)
        return 0;
    ts.tv_sec = (time_t)((deadline_ns - now) / 1000000000u);
    ts.tv_nsec = (long)((deadline_ns - now) % 1000000000u);
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
        ;
    return 0;
}

uint64_t tm_os_sleep_res_ns(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1;
    return (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec;
}
