/* Helpers shared by the two-party benchmarks; see twoparty.h. */
#include "twoparty.h"

static char tp_buf[1 << 20];

int tp_place(tm_ctx *ctx, int cross, int *mine, int *peer)
{
    int ncpu = tm_os_cpu_count();
    int cur = tm_os_cpu_current();
    if (cur < 0)
        cur = 0;
    if (cross && ncpu < 2)
        return tm_skip(ctx, "cross-CPU placement needs two CPUs (have %d)", ncpu);
    if (tm_os_pin_cpu(cur) != 0)
        return tm_skip(ctx, "cannot pin threads to a CPU on this port");
    *mine = cur;
    *peer = cross ? (cur + 1) % ncpu : cur;
    return TM_OK;
}

static void peer_echo(int rfd, int wfd)
{
    char b[64];
    for (;;) {
        long n = tm_os_read(rfd, b, sizeof b);
        if (n <= 0 || tm_os_write(wfd, b, (size_t)n) != n)
            return;
    }
}

static void peer_source(int rfd, int wfd, unsigned chunk)
{
    uint64_t n;
    if (chunk > sizeof tp_buf)
        chunk = sizeof tp_buf;
    while (tp_read_full(rfd, &n, sizeof n, sizeof n) == 0 && n) {
        while (n) {
            long w = tm_os_write(wfd, tp_buf, n < chunk ? (size_t)n : chunk);
            if (w <= 0)
                return;
            n -= (uint64_t)w;
        }
    }
}

tm_os_pid tp_fork_peer(int mode, int rfd, int wfd, int cpu, const int close_fd[4], unsigned chunk)
{
    tm_os_pid parent = tm_os_getpid();
    tm_os_pid pid = tm_os_fork();
    int i;
    if (pid != 0)
        return pid;
    tm_os_child_init(parent);
    for (i = 0; i < 4; i++)
        if (close_fd[i] >= 0)
            tm_os_close(close_fd[i]);
    if (tm_os_pin_cpu(cpu) == 0) {
        if (mode == TP_ECHO)
            peer_echo(rfd, wfd);
        else
            peer_source(rfd, wfd, chunk);
    }
    tm_os_exit_now(0);
    return -1;
}

void tp_stop_peer(tm_os_pid pid, int wfd, int rfd, int dgram)
{
    int status;
    if (dgram && wfd >= 0)
        tm_os_write(wfd, tp_buf, 0);
    if (wfd >= 0)
        tm_os_close(wfd);
    if (rfd >= 0 && rfd != wfd)
        tm_os_close(rfd);
    if (pid > 0)
        tm_os_wait(pid, &status);
}

void tp_pingpong(tm_ctx *ctx, int wfd, int rfd, uint64_t iters, unsigned div)
{
    char c = 'x';
    uint64_t i;
    for (i = 0; i < iters; i++) {
        uint64_t t0 = tm_ticks();
        if (tm_os_write(wfd, &c, 1) != 1 || tm_os_read(rfd, &c, 1) != 1) {
            tm_fail(ctx, "ping-pong peer went away");
            return;
        }
        tm_hist_add(ctx, tm_ticks_to_ns(tm_ticks() - t0) / div);
    }
}

int tp_read_full(int fd, void *buf, uint64_t n, unsigned chunk)
{
    char *p = buf;
    while (n) {
        long r = tm_os_read(fd, p, n < chunk ? (size_t)n : chunk);
        if (r <= 0)
            return -1;
        n -= (uint64_t)r;
        p += r;
    }
    return 0;
}
