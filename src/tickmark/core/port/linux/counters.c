/* Event counters on Linux through perf_event_open: hardware events where the PMU has them
 * (none in most VMs), and the software events task-clock, context switches, migrations and
 * page faults, for the calling process and its future threads. The hardware events are opened
 * as one group led by cycles, so the PMU schedules them together and ratios such as IPC come
 * from the same intervals; an event that does not fit the group is opened on its own. An event
 * the kernel refuses is listed as unsupported and the rest go on. A read reports multiplexing
 * when, since the previous read, some event ran for less time than it was enabled (its count
 * is then scaled). When perf_event_paranoid forbids kernel counting, events count user space
 * only (kernel-excluded). tm_ctr_open_for() opens the same events for a program that
 * tickmark-core exec started and holds before its exec: they start counting at the exec (the
 * core's fork and wait are not in them) and count the children it starts too. */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner.h"

typedef struct event_def {
    const char *name;
    uint32_t type;
    uint64_t config;
} event_def;

static const event_def events[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"stalled_frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled_backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"cache_references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"task_clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"context_switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu_migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
};
#define NEVENTS (int)(sizeof events / sizeof events[0])

static int fds[NEVENTS], opened[NEVENTS], nopen = -1, kernel_excluded, multiplexed, ngrouped;
static uint64_t last_enabled[NEVENTS], last_running[NEVENTS];
static char unsupported[512];

static long target_pid; /* 0: this process; else a held program (tm_ctr_open_for) */

static int open_event(const event_def *e, int exclude_kernel, int group_fd)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = e->type;
    attr.config = e->config;
    attr.inherit = 1;
    attr.exclude_kernel = (unsigned)exclude_kernel;
    attr.exclude_hv = 1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    if (target_pid && group_fd < 0) { /* a group's members follow their leader */
        attr.disabled = 1;
        attr.enable_on_exec = 1;
    }
    return (int)syscall(SYS_perf_event_open, &attr, (pid_t)target_pid, -1, group_fd, 0);
}

/* Open one event: in the hardware group where there is one (else on its own), counting the
 * kernel too where allowed. */
static int open_one(const event_def *e, int *leader)
{
    int excl, fd, hw = e->type == PERF_TYPE_HARDWARE;
    for (excl = kernel_excluded; excl <= 1; excl++) {
        fd = (hw && *leader >= 0) ? open_event(e, excl, *leader) : -1;
        if (fd >= 0)
            ngrouped++;
        else
            fd = open_event(e, excl, -1);
        if (fd < 0)
            continue;
        if (excl)
            kernel_excluded = 1;
        if (hw && *leader < 0) {
            *leader = fd;
            ngrouped = 1;
        }
        return fd;
    }
    return -1;
}

int tm_ctr_open_for(long pid)
{
    int n;
    tm_ctr_close();
    target_pid = pid;
    n = tm_ctr_open();
    target_pid = 0;
    return n;
}

int tm_ctr_open(void)
{
    int i, used = 0, leader = -1;
    if (nopen >= 0)
        return nopen;
    nopen = 0;
    ngrouped = 0;
    kernel_excluded = 0;
    unsupported[0] = '\0';
    for (i = 0; i < NEVENTS; i++) {
        int fd = open_one(&events[i], &leader);
        if (fd < 0) {
            used += snprintf(unsupported + used, used < (int)sizeof unsupported ? sizeof unsupported - (size_t)used : 0,
                             "%s%s", used ? "," : "", events[i].name);
            continue;
        }
        fds[nopen] = fd;
        last_enabled[nopen] = last_running[nopen] = 0;
        opened[nopen++] = i;
    }
    return nopen;
}

const char *tm_ctr_source(void) { return "perf"; }
int tm_ctr_count(void) { return nopen > 0 ? nopen : 0; }
const char *tm_ctr_name(int i) { return events[opened[i]].name; }
int tm_ctr_multiplexed(void) { return multiplexed; }
int tm_ctr_kernel_excluded(void) { return kernel_excluded; }
int tm_ctr_grouped(void) { return nopen > 0 ? ngrouped : 0; }
const char *tm_ctr_unsupported(void) { return unsupported; }

int tm_ctr_cycles_index(void)
{
    int i;
    for (i = 0; i < tm_ctr_count(); i++)
        if (events[opened[i]].config == PERF_COUNT_HW_CPU_CYCLES && events[opened[i]].type == PERF_TYPE_HARDWARE)
            return i;
    return -1;
}

int tm_ctr_read(uint64_t *values)
{
    int i;
    multiplexed = 0;
    for (i = 0; i < tm_ctr_count(); i++) {
        uint64_t v[3] = {0, 0, 0}; /* value, time enabled, time running */
        if (read(fds[i], v, sizeof v) != (ssize_t)sizeof v) {
            values[i] = 0;
            continue;
        }
        if (v[2] - last_running[i] < v[1] - last_enabled[i])
            multiplexed = 1; /* not counting all of the time since the previous read */
        last_enabled[i] = v[1];
        last_running[i] = v[2];
        if (v[2] && v[2] < v[1])
            v[0] = (uint64_t)((double)v[0] * (double)v[1] / (double)v[2]);
        values[i] = v[0];
    }
    return 0;
}

void tm_ctr_close(void)
{
    int i;
    for (i = 0; i < tm_ctr_count(); i++)
        close(fds[i]);
    nopen = -1;
}
