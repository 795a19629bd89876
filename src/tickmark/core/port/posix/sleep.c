/* Absolute sleeps on CLOCK_MONOTONIC (osal_prim.h): the clock tm_os_now_ns reads (time.c). */
#include <errno.h>
#include <time.h>

#include "tickmark/osal_prim.h"

int tm_os_sleep_until_ns(uint64_t deadline_ns)
{
    struct timespec ts;
    int r;
    ts.tv_sec = (time_t)(deadline_ns / 1000000000u);
    ts.tv_nsec = (long)(deadline_ns % 1000000000u);
    while ((r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
        ;
    return r ? -1 : 0;
}

uint64_t tm_os_sleep_res_ns(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1;
    return (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec;
}
