/* mem.bw_cores: bandwidth of `threads` CPUs at once, each streaming its own buffer.
 *
 * `threads` threads (this one and threads-1 more, each pinned to its own CPU) each own a buffer
 * of `size` bytes (separate mappings, touched by the thread that uses it). One operation is one
 * pass of every thread over its buffer: `op` 0 reads it (word loads, four sums), 1 writes it
 * (word stores), 2 copies its first half onto its second half (memcpy). bytes_per_op = threads
 * x bytes per pass, so the figure is the total rate; divided by `threads` it is the rate per
 * core, and over the `threads` sweep it shows how the memory system scales (a shared bus or
 * memory controller saturates; private caches do not). The default sweep stops at the CPU
 * count (cpus_param); a point given with more threads than CPUs reports skip.
 * Timed: from handing the batch of passes to the other threads until the last one has finished
 * (one semaphore post and wait per thread per sample). Not timed: creating, pinning and
 * stopping the threads, mapping and touching the buffers.
 */
#include <string.h>

#include "memutil.h"
#include "tickmark/osal.h"
#include "tickmark/osal_prim.h"

#define BWC_MAX 256

typedef struct {
    tm_membuf buf;
    tm_os_thread t;
    tm_os_sem *go, *done;
    int cpu, started, ok;
    uint64_t iters;
} bwc_worker;

static struct {
    bwc_worker w[BWC_MAX];
    int n, op;
    size_t size;
    volatile int stop;
} bwc;

static void bwc_pass(bwc_worker *w, uint64_t iters)
{
    size_t n = w->buf.bytes, i;
    char *p = w->buf.p;
    while (iters--) {
        if (bwc.op == 0) {
            const size_t *x = (const size_t *)p;
            size_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, k = n / sizeof(size_t);
            tm_escape(x);
            for (i = 0; i < k; i += 4) {
                s0 += x[i];
                s1 += x[i + 1];
                s2 += x[i + 2];
                s3 += x[i + 3];
            }
            tm_sink = s0 + s1 + s2 + s3;
        } else if (bwc.op == 1) {
            size_t *x = (size_t *)p, k = n / sizeof(size_t);
            for (i = 0; i < k; i++)
                x[i] = (size_t)iters;
            tm_escape(x);
        } else {
            memcpy(p + n / 2, p, n / 2);
            tm_escape(p);
        }
    }
}

static void *bwc_main(void *arg)
{
    bwc_worker *w = arg;
    if (tm_os_pin_cpu(w->cpu) != 0) {
        tm_os_sem_post(w->done);
        return NULL;
    }
    w->ok = 1;
    tm_os_sem_post(w->done);
    for (;;) {
        if (tm_os_sem_wait(w->go) != 0 || bwc.stop)
            return NULL;
        bwc_pass(w, w->iters);
        tm_os_sem_post(w->done);
    }
}

static int setup_bw_cores(tm_ctx *ctx)
{
    int64_t threads = tm_param(ctx, "threads"), size = tm_param(ctx, "size"), op = tm_param(ctx, "op");
    int ncpu = tm_os_cpu_count(), mine = tm_os_cpu_current(), i, rc;
    if (threads < 1 || threads > BWC_MAX)
        return tm_fail(ctx, "threads %ld is not between 1 and %d", (long)threads, BWC_MAX);
    if (size < 256 || size % 128)
        return tm_fail(ctx, "size %ld is not a multiple of 128 of at least 256", (long)size);
    if (op < 0 || op > 2)
        return tm_fail(ctx, "op %ld is not 0 (read), 1 (write) or 2 (copy)", (long)op);
    if (threads > ncpu)
        return tm_skip(ctx, "%ld threads need %ld CPUs (have %d)", (long)threads, (long)threads, ncpu);
    if (mine < 0)
        mine = 0;
    if (tm_os_pin_cpu(mine) != 0 && threads > 1)
        return tm_skip(ctx, "cannot pin threads to CPUs on this port");
    memset(&bwc, 0, sizeof bwc);
    bwc.op = (int)op;
    bwc.size = (size_t)size;
    ctx->user = &bwc;
    for (i = 0; i < threads; i++) {
        bwc_worker *w = &bwc.w[i];
        if ((rc = tm_membuf_get(ctx, &w->buf, (size_t)size, -1)) != TM_OK)
            return rc;
        bwc.n = i + 1;
        w->cpu = (mine + i) % ncpu;
        if (i == 0)
            continue;
        w->go = tm_os_sem_create(0);
        w->done = tm_os_sem_create(0);
        if (!w->go || !w->done || tm_os_thread_create(&w->t, bwc_main, w) != 0)
            return tm_fail(ctx, "cannot start thread %d", i);
        w->started = 1;
        tm_os_sem_wait(w->done);
        if (!w->ok)
            return tm_skip(ctx, "cannot pin a thread to CPU %d", w->cpu);
    }
    ctx->bytes_per_op = (uint64_t)threads * (op == 2 ? (uint64_t)size / 2 : (uint64_t)size);
    return TM_OK;
}

static void run_bw_cores(tm_ctx *ctx, uint64_t iters)
{
    int i;
    (void)ctx;
    for (i = 1; i < bwc.n; i++) {
        bwc.w[i].iters = iters;
        tm_os_sem_post(bwc.w[i].go);
    }
    bwc_pass(&bwc.w[0], iters);
    for (i = 1; i < bwc.n; i++)
        tm_os_sem_wait(bwc.w[i].done);
}

static void teardown_bw_cores(tm_ctx *ctx)
{
    int i;
    if (!ctx->user)
        return;
    bwc.stop = 1;
    for (i = 1; i < bwc.n; i++) {
        bwc_worker *w = &bwc.w[i];
        if (w->started) {
            tm_os_sem_post(w->go);
            tm_os_thread_join(w->t);
        }
        tm_os_sem_destroy(w->go);
        tm_os_sem_destroy(w->done);
    }
    for (i = 0; i < bwc.n; i++)
        tm_membuf_put(&bwc.w[i].buf);
    ctx->user = NULL;
}

TM_BENCH(mem_bw_cores) = {
    .name = "mem.bw_cores",
    .summary = "read, write or copy own buffers on threads CPUs at once (total bytes per pass)",
    .unit = "pass",
    .requires = TM_REQ_THREADS,
    .flags = TM_F_NO_COUNTERS,
    .stat = TM_STAT_MAX_RATE,
    .params = {{"threads", "1,2,4,8,16,32,64", "threads, each pinned to its own CPU"},
               {"size", "256K,64M", "bytes per thread: inside a private L2, and DRAM"},
               {"op", "0,1,2", "0: read, 1: write, 2: copy (half onto half; bytes copied counted)"}},
    .cpus_param = "threads", /* by default up to the CPU count: 1,2 on two CPUs, 1,2,4,6 on six */
    .setup = setup_bw_cores,
    .run = run_bw_cores,
    .teardown = teardown_bw_cores,
};
