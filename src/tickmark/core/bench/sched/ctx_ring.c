/* sched.ctx_ring — lmbench lat_ctx style token ring. procs processes (this one and procs-1
 * children), all pinned to one CPU, are linked in a ring of pipes; a 1-byte token goes round.
 * On receiving it, each process sums its private array of size KiB (its cache footprint),
 * then writes the token to the next one. One operation is one hop: read, array sum, write,
 * and the context switch to the next process. Timed: hops only; fork, pinning and array set-up
 * are in setup.
 * The raw hop time is the headline. Sub-metric "switch_derived" is the hop time minus the
 * overhead of the same pipe write+read and array sum done inside one process (measured in
 * setup, median of 5 batches), i.e. lmbench's per-switch figure; it is derived, not measured,
 * and includes refilling the cache with the array when the ring's footprint exceeds it.
 * Sub-metric "overhead" is that subtracted part. The histogram holds, per lap of the token,
 * the lap time divided by procs (the mean hop of that lap). */
#include "../common/twoparty.h"

#define MAX_PROCS 96

typedef struct {
    int procs;
    size_t words;
    uint64_t *data;
    int ring[MAX_PROCS][2];
    tm_os_pid pid[MAX_PROCS];
    uint64_t ovh_ps; /* in-process overhead per hop, picoseconds */
} ring_state;

static ring_state rs;

static void touch(const uint64_t *d, size_t words)
{
    uint64_t s = 0;
    size_t i;
    for (i = 0; i < words; i++)
        s += d[i];
    tm_sink += s;
}

static void member(int i, int cpu)
{
    uint64_t *d = rs.words ? tm_os_alloc(rs.words * 8) : NULL;
    int in = rs.ring[i][0], out = rs.ring[(i + 1) % rs.procs][1], k;
    char c;
    for (k = 0; k < rs.procs; k++) {
        if (rs.ring[k][0] != in)
            tm_os_close(rs.ring[k][0]);
        if (rs.ring[k][1] != out)
            tm_os_close(rs.ring[k][1]);
    }
    if ((rs.words && !d) || tm_os_pin_cpu(cpu) != 0)
        return;
    for (k = 0; (size_t)k < rs.words; k++)
        d[k] = (uint64_t)k;
    while (tm_os_read(in, &c, 1) == 1) {
        touch(d, rs.words);
        if (tm_os_write(out, &c, 1) != 1)
            return;
    }
}

static int measure_overhead(tm_ctx *ctx)
{
    uint64_t t[5], tmp;
    int p[2], b, i, j;
    char c = 'x';
    if (tm_os_pipe(p) != 0)
        return tm_fail(ctx, "pipe failed");
    for (b = 0; b < 5; b++) {
        uint64_t t0 = tm_now_ns();
        for (i = 0; i < 200; i++) {
            touch(rs.data, rs.words);
            if (tm_os_write(p[1], &c, 1) != 1 || tm_os_read(p[0], &c, 1) != 1)
                break;
        }
        t[b] = (tm_now_ns() - t0) * 1000 / 200;
    }
    tm_os_close(p[0]);
    tm_os_close(p[1]);
    for (i = 0; i < 5; i++)
        for (j = i + 1; j < 5; j++)
            if (t[j] < t[i]) {
                tmp = t[i];
                t[i] = t[j];
                t[j] = tmp;
            }
    rs.ovh_ps = t[2];
    return TM_OK;
}

static int setup(tm_ctx *ctx)
{
    int64_t procs = tm_param(ctx, "procs"), size = tm_param(ctx, "size");
    int mine, peer, r, i;
    size_t k;
    if (procs < 2 || procs > MAX_PROCS)
        return tm_fail(ctx, "procs must be 2..%d", MAX_PROCS);
    if (size < 0 || size > 64 * 1024)
        return tm_fail(ctx, "size must be 0..65536 KiB");
    if ((r = tp_place(ctx, 0, &mine, &peer)) != TM_OK)
        return r;
    rs.procs = (int)procs;
    rs.words = (size_t)size * 1024 / 8;
    rs.data = rs.words ? tm_os_alloc(rs.words * 8) : NULL;
    if (rs.words && !rs.data)
        return tm_fail(ctx, "out of memory");
    for (k = 0; k < rs.words; k++)
        rs.data[k] = k;
    for (i = 0; i < rs.procs; i++) {
        rs.pid[i] = -1;
        rs.ring[i][0] = rs.ring[i][1] = -1;
    }
    ctx->user = &rs;
    ctx->ops_per_iter = (uint64_t)rs.procs;
    if ((r = measure_overhead(ctx)) != TM_OK)
        return r;
    for (i = 0; i < rs.procs; i++)
        if (tm_os_pipe(rs.ring[i]) != 0)
            return tm_fail(ctx, "pipe failed (%d processes)", rs.procs);
    for (i = 1; i < rs.procs; i++) {
        tm_os_pid parent = tm_os_getpid();
        rs.pid[i] = tm_os_fork();
        if (rs.pid[i] == 0) {
            tm_os_peer_init(parent);
            member(i, mine);
            tm_os_exit_now(0);
        }
        if (rs.pid[i] < 0)
            return tm_fail(ctx, "fork failed after %d processes", i);
    }
    /* keep only member 0's ends: read ring[0], write ring[1] */
    for (i = 0; i < rs.procs; i++) {
        if (i != 0) {
            tm_os_close(rs.ring[i][0]);
            rs.ring[i][0] = -1;
        }
        if (i != 1 % rs.procs) {
            tm_os_close(rs.ring[i][1]);
            rs.ring[i][1] = -1;
        }
    }
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    int in = rs.ring[0][0], out = rs.ring[1][1];
    uint64_t t0 = tm_now_ns(), i, ns, ovh;
    char c = 'x';
    for (i = 0; i < iters; i++) {
        uint64_t l0 = tm_ticks();
        touch(rs.data, rs.words);
        if (tm_os_write(out, &c, 1) != 1 || tm_os_read(in, &c, 1) != 1) {
            tm_fail(ctx, "token ring broken");
            return;
        }
        tm_hist_add(ctx, tm_ticks_to_ns(tm_ticks() - l0) / (uint64_t)rs.procs);
    }
    ns = tm_now_ns() - t0;
    ovh = iters * (uint64_t)rs.procs * rs.ovh_ps / 1000;
    tm_sub_add(ctx, 0, ns > ovh ? ns - ovh : 0);
    tm_sub_add(ctx, 1, ovh);
}

static void teardown(tm_ctx *ctx)
{
    int i, status;
    if (!ctx->user)
        return;
    for (i = 0; i < rs.procs; i++) {
        if (rs.ring[i][0] >= 0)
            tm_os_close(rs.ring[i][0]);
        if (rs.ring[i][1] >= 0)
            tm_os_close(rs.ring[i][1]);
    }
    for (i = 1; i < rs.procs; i++)
        if (rs.pid[i] > 0)
            tm_os_wait(rs.pid[i], &status);
    tm_os_free(rs.data);
    ctx->user = NULL;
}

TM_BENCH(sched_ctx_ring) = {
    .name = "sched.ctx_ring",
    .summary = "token hop in a ring of processes on one CPU, each touching size KiB (lmbench lat_ctx); "
               "sub switch_derived = hop - in-process pipe+touch overhead (derived)",
    .unit = "hop",
    .requires = TM_REQ_PROCESSES | TM_REQ_PIPES,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .subs = "switch_derived,overhead",
    .params = {{"procs", "2,8,32", "processes in the ring, 2..96"},
               {"size", "0,16", "private data each process sums per hop, in KiB (0..64 typical)"}},
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
