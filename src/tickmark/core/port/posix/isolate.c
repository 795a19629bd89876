/* Isolation of one benchmark instance: run it in a child process (its own process group) with
 * a time limit. A crash or a hang becomes a status; whatever the child left running in its
 * group is killed. SIGINT, SIGTERM, SIGHUP (a closed terminal or console) and SIGPIPE (a reader
 * that went away) to the runner stop the child and end the run, its scratch directory removed. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"
#include "tickmark/osal.h"

static volatile sig_atomic_t alarm_fired, stop_signal;

static void on_alarm(int sig) { (void)sig; alarm_fired = 1; }
static void on_stop(int sig) { stop_signal = sig; }

static void set_handler(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL); /* no SA_RESTART: waitpid returns EINTR */
}

void tm_os_watch(int timeout_s)
{
    alarm_fired = 0;
    set_handler(SIGALRM, on_alarm);
    set_handler(SIGINT, on_stop);
    set_handler(SIGTERM, on_stop);
    set_handler(SIGHUP, on_stop);
    set_handler(SIGPIPE, on_stop);
    alarm((unsigned)timeout_s);
}

int tm_os_watch_expired(void) { return alarm_fired != 0; }
int tm_os_stop_requested(void) { return stop_signal != 0; }

const char *tm_os_signal_name(int sig, char *buf, size_t len)
{
    static const struct { int sig; const char *name; } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"}, {SIGILL, "SIGILL"},
        {SIGABRT, "SIGABRT"}, {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGPIPE, "SIGPIPE"},
        {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"}, {SIGINT, "SIGINT"}, {SIGALRM, "SIGALRM"}};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    snprintf(buf, len, "signal %d", sig);
    return buf;
}

/* Called in the child right after fork (the Linux port also asks to die with the parent). */
void tm_os_child_init(void);

int tm_os_run_isolated(void (*fn)(void *), void *arg, int timeout_s, char *detail, size_t len)
{
    pid_t pid, r;
    int status = 0, result;
    char signame[32];

    if (stop_signal) {
        snprintf(detail, len, "interrupted");
        return TM_ISO_ERROR;
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        snprintf(detail, len, "fork failed: %s", strerror(errno));
        return TM_ISO_ERROR;
    }
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        tm_os_child_init();
        fn(arg);
        fflush(stdout);
        _exit(0);
    }
    setpgid(pid, pid);
    tm_os_watch(timeout_s);
    for (;;) {
        r = waitpid(pid, &status, 0);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            break;
        if (alarm_fired || stop_signal) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
    }
    alarm(0);
    kill(-pid, SIGKILL); /* anything the benchmark left behind in its group */
    if (stop_signal) {
        snprintf(detail, len, "interrupted");
        result = TM_ISO_ERROR;
    } else if (alarm_fired) {
        snprintf(detail, len, "no result after %d s", timeout_s);
        result = TM_ISO_TIMEOUT;
    } else if (r == pid && WIFSIGNALED(status)) {
        snprintf(detail, len, "%s", tm_os_signal_name(WTERMSIG(status), signame, sizeof signame));
        result = TM_ISO_CRASHED;
    } else if (r == pid && WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        snprintf(detail, len, "exited with status %d", WEXITSTATUS(status));
        result = TM_ISO_EXITED;
    } else {
        result = TM_ISO_OK;
    }
    return result;
}
