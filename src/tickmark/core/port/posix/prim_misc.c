/* Files, lazily mapped memory and real-time priority (osal_prim.h); sleeps: sleep.c. */
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
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

int tm_os_set_rt_priority(int prio, const char **why)
{
    struct sched_param sp;
    int r;
    memset(&sp, 0, sizeof sp);
    sp.sched_priority = prio < 0 ? sched_get_priority_max(SCHED_FIFO) + 1 + prio : prio; /* -1: the highest */
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
