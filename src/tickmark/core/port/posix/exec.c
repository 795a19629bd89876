/* One run of a program for tickmark-core exec (src/exec.c). The core forks; the child waits on a
 * pipe until the core has opened the counters for it (tm_ctr_open_for: events that start
 * counting at its exec), then execs with stdin from /dev/null and stdout and stderr into files.
 * The time runs from the child's exec (it reads the clock just before and sends the time: how
 * long a loaded machine took to wake it up is not the program's) to its reaping by the core.
 * CPU time, context switches and page faults
 * come from getrusage(RUSAGE_CHILDREN) before and after: the program and every child it waited
 * for. A program past its time limit, or a SIGINT, SIGTERM, SIGHUP or SIGPIPE to the core, has
 * its process group killed; what the program left running in its group is killed after it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"
#include "tickmark/osal.h"

static uint64_t cpu_ns(const struct rusage *ru)
{
    return ((uint64_t)ru->ru_utime.tv_sec + (uint64_t)ru->ru_stime.tv_sec) * 1000000000u +
           ((uint64_t)ru->ru_utime.tv_usec + (uint64_t)ru->ru_stime.tv_usec) * 1000u;
}

static int open_to(const char *path, int fd, int flags)
{
    int f = open(path, flags, 0600);
    if (f < 0 || dup2(f, fd) < 0)
        return -1;
    if (f != fd)
        close(f);
    return 0;
}

/* The child: default signals, its own process group, held until released, then the program. */
static void child(int go, int report, char *const *argv, const char *out_path, const char *err_path)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM, SIGQUIT, SIGCHLD};
    sigset_t none;
    char c;
    int e, i;
    long got;
    uint64_t start;
    setpgid(0, 0);
    for (i = 0; i < (int)(sizeof sigs / sizeof sigs[0]); i++)
        signal(sigs[i], SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    do
        got = read(go, &c, 1);
    while (got < 0 && errno == EINTR);
    if (got != 1)
        _exit(127); /* not released: the core went away */
    start = tm_os_now_ns();
    if (write(report, &start, sizeof start) != (long)sizeof start)
        _exit(127);
    if (open_to("/dev/null", 0, O_RDONLY) ||
        open_to(out_path ? out_path : "/dev/null", 1, O_WRONLY | O_CREAT | O_TRUNC) ||
        open_to(err_path, 2, O_WRONLY | O_CREAT | O_TRUNC))
        e = errno;
    else {
        execvp(argv[0], argv);
        e = errno;
    }
    if (write(report, &e, sizeof e) < 0)
        _exit(127);
    _exit(127);
}

/* Read n bytes (fewer at the end of the pipe, or when the core is told to stop) -> bytes read. */
static long read_all(int fd, void *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        long got = read(fd, (char *)buf + done, n - done);
        if (got > 0)
            done += (size_t)got;
        else if (got == 0 || errno != EINTR || tm_os_watch_expired() || tm_os_stop_requested())
            break;
    }
    return (long)done;
}

static void usage_delta(const struct rusage *a, const struct rusage *b, tm_exec_run *r)
{
    r->have_usage = 1;
    r->cpu_ns = cpu_ns(b) - cpu_ns(a);
    r->switches = (uint64_t)((b->ru_nvcsw + b->ru_nivcsw) - (a->ru_nvcsw + a->ru_nivcsw));
    r->faults = (uint64_t)((b->ru_minflt + b->ru_majflt) - (a->ru_minflt + a->ru_majflt));
}

void tm_os_parent_death_signal(int sig); /* child.c */

void tm_os_harness_bound(void) { tm_os_parent_death_signal(SIGTERM); }

int tm_os_exec_run(char *const *argv, int timeout_s, const char *out_path, const char *err_path, tm_exec_run *r)
{
    int go[2], report[2], status = 0, e = 0, i;
    struct rusage before, after;
    pid_t pid, w = -1;
    long got;
    uint64_t t0, start;

    if (tm_os_stop_requested()) {
        r->interrupted = 1;
        return 0;
    }
    if (pipe(go) != 0) {
        snprintf(r->err, sizeof r->err, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe(report) != 0) {
        snprintf(r->err, sizeof r->err, "pipe: %s", strerror(errno));
        close(go[0]);
        close(go[1]);
        return -1;
    }
    for (i = 0; i < 2; i++) { /* none of them reaches the program */
        fcntl(go[i], F_SETFD, FD_CLOEXEC);
        fcntl(report[i], F_SETFD, FD_CLOEXEC);
    }
    fflush(stdout);
    fflush(stderr);
    getrusage(RUSAGE_CHILDREN, &before);
    pid = fork();
    if (pid == 0)
        child(go[0], report[1], argv, out_path, err_path);
    close(go[0]);
    close(report[1]);
    if (pid < 0) {
        snprintf(r->err, sizeof r->err, "fork: %s", strerror(errno));
        close(go[1]);
        close(report[0]);
        return -1;
    }
    setpgid(pid, pid);
    r->nctr = tm_ctr_open_for((long)pid);
    tm_os_watch(timeout_s);
    t0 = tm_os_now_ns();
    if (write(go[1], "g", 1) != 1)
        kill(pid, SIGKILL);
    close(go[1]);
    if (read_all(report[0], &start, sizeof start) != (long)sizeof start)
        start = t0; /* the child died before its exec: timed from its release */
    got = read_all(report[0], &e, sizeof e); /* nothing: the exec closed the pipe; an errno: it failed */
    close(report[0]);
    for (;;) {
        w = waitpid(pid, &status, 0);
        if (w == pid || (w < 0 && errno != EINTR))
            break;
        if (tm_os_watch_expired() || tm_os_stop_requested()) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
    }
    r->wall_ns = tm_os_now_ns() - start;
    alarm(0);
    kill(-pid, SIGKILL); /* what the program left behind in its group */
    if (r->nctr) {
        tm_ctr_read(r->ctr);
        r->multiplexed = tm_ctr_multiplexed();
        tm_ctr_close();
    }
    if (got == (long)sizeof e) {
        snprintf(r->err, sizeof r->err, "%s", strerror(e));
        return -1;
    }
    getrusage(RUSAGE_CHILDREN, &after);
    usage_delta(&before, &after, r);
    r->timed_out = tm_os_watch_expired();
    r->interrupted = tm_os_stop_requested();
    if (w == pid && WIFEXITED(status)) {
        r->exited = 1;
        r->code = WEXITSTATUS(status);
    } else if (w == pid && WIFSIGNALED(status)) {
        r->code = WTERMSIG(status);
        char name[32];
        snprintf(r->err, sizeof r->err, "%s", tm_os_signal_name(r->code, name, sizeof name));
    }
    return 0;
}
