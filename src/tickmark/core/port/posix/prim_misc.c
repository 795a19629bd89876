/* Files, lazily mapped memory, absolute sleeps and real-time priority (osal_prim.h). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tickmark/osal_prim.h"

long tm_os_pread(int fd, void *buf, size_t n, uint64_t off) { return (long)pread(fd, buf, n, (off_t)off); }

void *tm_os_map_lazy(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_NOHUGEPAGE
    madvise(p, bytes, MADV_NOHUGEPAGE);
#endif
    return p;
}

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

int tm_os_set_rt_priority(int prio, const char **why)
{
    struct sched_param sp;
    int r;
    memset(&sp, 0, sizeof sp);
    sp.sched_priority = prio;
    r = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    if (r != 0) {
        if (why)
            *why = strerror(r);
        return -1;
    }
    return 0;
}

int tm_os_set_normal_priority(void)
{
    struct sched_param sp;
    memset(&sp, 0, sizeof sp);
    return pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp) ? -1 : 0;
}

int tm_os_lock_memory(void) { return mlockall(MCL_CURRENT | MCL_FUTURE); }
void tm_os_unlock_memory(void) { munlockall(); }
