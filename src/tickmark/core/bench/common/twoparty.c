/* Helpers shared by the two-party benchmarks; see twoparty.h. */
#include "twoparty.h"

#define TP_BUF_BYTES (1u << 20)

/* The bulk-transfer buffer, allocated on first use (not static: a small target has no room
 * for a megabyte it never uses). */
static char *tp_buf;

static char *tp_buffer(void)
{
    if (!tp_buf)
        tp_buf = tm_os_alloc(TP_BUF_BYTES);
    return tp_buf;
}

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

static void peer_echo(int rfd, int wfd, unsigned msg)
{
    char small[64];
    char *buf = msg > sizeof small ? tm_os_alloc(msg) : small;
    if (!msg)
        msg = 1;
    if (!buf)
        return;
    while (tp_read_full(rfd, buf, msg, msg, 1) == 0 && tp_write_full(wfd, buf, msg) == 0)
        ;
    if (buf != small)
        tm_os_free(buf);
}

static void peer_source(int rfd, int wfd, unsigned chunk)
{
    uint64_t n;
    char *buf = tp_buffer();
    if (!buf)
        return;
    if (chunk > TP_BUF_BYTES)
        chunk = TP_BUF_BYTES;
    while (tp_read_full(rfd, &n, sizeof n, sizeof n, 1) == 0 && n) {
        while (n) {
            long w = tm_os_write(wfd, buf, n < chunk ? (size_t)n : chunk);
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
    tm_os_peer_init(parent);
    for (i = 0; i < 4; i++)
        if (close_fd[i] >= 0)
            tm_os_close(close_fd[i]);
    if (tm_os_pin_cpu(cpu) == 0) {
        if (mode == TP_ECHO)
            peer_echo(rfd, wfd, chunk);
        else
            peer_source(rfd, wfd, chunk);
    }
    tm_os_exit_now(0);
    return -1;
}

void tp_stop_peer(tm_os_pid pid, int wfd, int rfd, int dgram)
{
    int status;
    char none = 0;
    if (dgram && wfd >= 0)
        tm_os_write(wfd, &none, 0);
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

int tp_write_full(int fd, const void *buf, uint64_t n)
{
    const char *p = buf;
    while (n) {
        long w = tm_os_write(fd, p, (size_t)n);
        if (w <= 0)
            return -1;
        n -= (uint64_t)w;
        p += w;
    }
    return 0;
}

int tp_event_hist(tm_ctx *ctx, int (*event)(void), unsigned div)
{
    unsigned i;
    for (i = 0; i < TP_EVENTS; i++) {
        uint64_t t0 = tm_ticks();
        if (event() != 0)
            return -1;
        tm_hist_add(ctx, tm_ticks_to_ns(tm_ticks() - t0) / div);
    }
    return 0;
}

int tp_read_full(int fd, void *buf, uint64_t n, unsigned chunk, int advance)
{
    char *p = buf;
    while (n) {
        long r = tm_os_read(fd, p, n < chunk ? (size_t)n : chunk);
        if (r <= 0)
            return -1;
        n -= (uint64_t)r;
        if (advance)
            p += r;
    }
    return 0;
}

/* A peer thread: the child's loop (peer_echo or peer_source) on its ends of the channel. */
typedef struct {
    int mode, rfd, wfd, cpu;
    unsigned chunk;
} tp_peer_args;

static tp_peer_args peer_args; /* one channel at a time */

static void *peer_thread(void *arg)
{
    tp_peer_args *a = arg;
    if (tm_os_pin_cpu(a->cpu) == 0) {
        if (a->mode == TP_ECHO)
            peer_echo(a->rfd, a->wfd, a->chunk);
        else
            peer_source(a->rfd, a->wfd, a->chunk);
    }
    return NULL;
}

static int start_peer_thread(tm_ctx *ctx, tp_link *l, int mode, int rfd, int wfd, int cpu, unsigned chunk)
{
    peer_args.mode = mode;
    peer_args.rfd = rfd;
    peer_args.wfd = wfd;
    peer_args.cpu = cpu;
    peer_args.chunk = chunk;
    if (tm_os_thread_create(&l->thread, peer_thread, &peer_args) != 0)
        return -1;
    l->threaded = 1;
    l->peer_r = rfd;
    l->peer_w = wfd;
    tm_info(ctx, "peer_thread", 1);
    return 0;
}

int tp_link_open(tm_ctx *ctx, tp_link *l, int kind, int cpu, int mode, unsigned chunk)
{
    int a[2], b[2], close_fd[4] = {-1, -1, -1, -1};
    int child_r, child_w;
    unsigned caps = tm_port_caps();
    l->pid = -1;
    l->wfd = l->rfd = -1;
    l->threaded = 0;
    l->peer_r = l->peer_w = -1;
    if (!(caps & TM_REQ_PROCESSES) && !(caps & TM_REQ_THREADS))
        return tm_skip(ctx, "the %s port has neither processes nor threads for the peer", tm_port_name());
    l->dgram = kind == TM_SOCK_UNIX_DGRAM || kind == TM_SOCK_UDP;
    if (kind == TP_PIPE) {
        if (tm_os_pipe(a) != 0)
            return tm_fail(ctx, "pipe failed");
        if (tm_os_pipe(b) != 0) {
            tm_os_close(a[0]);
            tm_os_close(a[1]);
            return tm_fail(ctx, "pipe failed");
        }
        l->wfd = a[1];
        l->rfd = b[0];
        child_r = a[0];
        child_w = b[1];
        close_fd[0] = a[1];
        close_fd[1] = b[0];
    } else {
        if (tm_os_sock_pair(kind, a) != 0)
            return kind == TM_SOCK_TCP || kind == TM_SOCK_UDP
                       ? tm_skip(ctx, "cannot connect over 127.0.0.1: is the loopback interface (lo) up?")
                       : tm_skip(ctx, "the %s port cannot open a loopback socket pair of this kind", tm_port_name());
        l->wfd = l->rfd = a[0];
        child_r = child_w = a[1];
        close_fd[0] = a[0];
    }
    if (!(caps & TM_REQ_PROCESSES)) { /* a thread shares the descriptors: they stay open */
        if (start_peer_thread(ctx, l, mode, child_r, child_w, cpu, chunk) == 0)
            return TM_OK;
        l->peer_r = child_r;
        l->peer_w = child_w;
        tp_link_close(l);
        return tm_fail(ctx, "cannot create the peer thread");
    }
    l->pid = tp_fork_peer(mode, child_r, child_w, cpu, close_fd, chunk);
    tm_os_close(child_r);
    if (child_w != child_r)
        tm_os_close(child_w);
    if (l->pid < 0) {
        tp_link_close(l);
        return tm_fail(ctx, "fork failed");
    }
    return TM_OK;
}

void tp_link_close(tp_link *l)
{
    if (l->wfd >= 0 || l->pid > 0) /* our ends closed: the peer sees EOF (or an empty datagram) */
        tp_stop_peer(l->threaded ? -1 : l->pid, l->wfd, l->rfd, l->dgram);
    if (l->threaded)
        tm_os_thread_join(l->thread);
    if (l->peer_r >= 0)
        tm_os_close(l->peer_r);
    if (l->peer_w >= 0 && l->peer_w != l->peer_r)
        tm_os_close(l->peer_w);
    l->pid = -1;
    l->threaded = 0;
    l->wfd = l->rfd = l->peer_r = l->peer_w = -1;
}

/* ---- the channel benchmarks ---- */

static tp_link channel;
static uint64_t channel_msg; /* the latency benchmarks' message: bytes each way */

/* One round trip of msg bytes each way over the channel: all of ours out, all of the echo in. */
static int round_trip(uint64_t msg)
{
    return tp_write_full(channel.wfd, tp_buf, msg) == 0 && tp_read_full(channel.rfd, tp_buf, msg, (unsigned)msg, 1) == 0
               ? 0
               : -1;
}

int tp_lat_setup(tm_ctx *ctx, int kind, int64_t msg)
{
    int mine, peer, r;
    if (msg > 1 && !tp_buffer()) /* msg: its range, 1M = TP_BUF_BYTES at most */
        return tm_skip(ctx, "cannot allocate %u KiB", TP_BUF_BYTES >> 10);
    if ((r = tp_place(ctx, (int)tm_param(ctx, "cross"), &mine, &peer)) != TM_OK)
        return r;
    ctx->user = &channel;
    channel_msg = (uint64_t)msg;
    if ((r = tp_link_open(ctx, &channel, kind, peer, TP_ECHO, (unsigned)msg)) != TM_OK || msg == 1)
        return r;
    if (round_trip(channel_msg) != 0) { /* a datagram larger than the system sends */
        int dgram = channel.dgram;
        tp_link_close(&channel);
        return dgram ? tm_skip(ctx, "msg=%lld is more than the largest datagram this system sends", (long long)msg)
                   : tm_fail(ctx, "the echo peer went away");
    }
    return TM_OK;
}

void tp_lat_run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t i;
    if (channel_msg == 1) {
        tp_pingpong(ctx, channel.wfd, channel.rfd, iters, 1);
        return;
    }
    for (i = 0; i < iters; i++) {
        uint64_t t0 = tm_ticks();
        if (round_trip(channel_msg) != 0) {
            tm_fail(ctx, "the echo peer went away");
            return;
        }
        tm_hist_add(ctx, tm_ticks_to_ns(tm_ticks() - t0));
    }
}

int tp_bw_setup(tm_ctx *ctx, int kind)
{
    int64_t msg = tm_param(ctx, "msg"); /* its range: 1M = TP_BUF_BYTES at most */
    int mine, peer, r;
    if (!tp_buffer())
        return tm_skip(ctx, "cannot allocate %u KiB", TP_BUF_BYTES >> 10);
    if ((r = tp_place(ctx, (int)tm_param(ctx, "cross"), &mine, &peer)) != TM_OK)
        return r;
    ctx->bytes_per_op = (uint64_t)msg;
    ctx->user = &channel;
    return tp_link_open(ctx, &channel, kind, peer, TP_SOURCE, (unsigned)msg);
}

void tp_bw_run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t n = iters * ctx->bytes_per_op;
    if (tm_os_write(channel.wfd, &n, sizeof n) != (long)sizeof n ||
        tp_read_full(channel.rfd, tp_buf, n, (unsigned)ctx->bytes_per_op, 0) != 0)
        tm_fail(ctx, "the sending child went away");
}

void tp_channel_teardown(tm_ctx *ctx)
{
    tp_link_close(&channel);
    ctx->user = NULL;
}
