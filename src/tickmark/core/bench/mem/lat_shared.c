/* mem.lat_shared: load-to-use latency of the random chase while another CPU streams memory.
 *
 * The chase is mem.lat_rand's (32-byte slots of a `size`-byte set in huge pages, one random
 * cycle); one operation is one dependent load. With `hog` > 0 a second thread, pinned to
 * another CPU, reads a buffer of `hog` bytes line by line, over and over, for as long as the
 * instance runs: its lines compete with the chase's for every cache both CPUs share. With
 * hog=0 the other CPU is left idle. A set that fits a shared cache when the other CPU is idle
 * and costs more when it streams shows that the cache's capacity is shared, and how much of it
 * another core's traffic takes (`tickmark topology` uses it when the last cache level comes out
 * smaller than the OS says).
 * Timed: the chase only. Not timed: mapping, linking, starting and stopping the streamer.
 * Headline: the minimum.
 */
#include "memutil.h"
#include "../common/twoparty.h"
#include "tickmark/osal.h"

#define SLOT 32

typedef struct {
    tm_membuf buf, hogbuf;
    void **cur;
    tm_os_thread t;
    int cpu, started;
    volatile int stop, ready;
} lat_shared_state;

static lat_shared_state ls;

static void *streamer(void *arg)
{
    lat_shared_state *s = arg;
    const volatile char *p = s->hogbuf.p;
    size_t n = s->hogbuf.bytes, i;
    uint64_t sum = 0;
    if (tm_os_pin_cpu(s->cpu) != 0)
        return NULL;
    s->ready = 1;
    while (!s->stop)
        for (i = 0; i < n && !s->stop; i += 64)
            sum += (uint64_t)p[i];
    tm_sink = sum;
    return NULL;
}

static int setup_lat_shared(tm_ctx *ctx)
{
    int64_t size = tm_param(ctx, "size"), hog = tm_param(ctx, "hog");
    int mine, peer, rc;
    if (size < 2 * SLOT)
        return tm_fail(ctx, "size %ld is below %d bytes", (long)size, 2 * SLOT);
    if (hog < 0 || (hog > 0 && hog < 4096))
        return tm_fail(ctx, "hog %ld is neither 0 nor at least 4K", (long)hog);
    if ((rc = tp_place(ctx, 1, &mine, &peer)) != TM_OK)
        return rc;
    ls.started = 0;
    ls.stop = 0;
    ls.ready = 0;
    ls.cpu = peer;
    ls.hogbuf.map = NULL;
    rc = tm_membuf_get(ctx, &ls.buf, (size_t)size, 1);
    if (rc != TM_OK)
        return rc;
    ctx->user = &ls;
    ls.cur = tm_chain_random(ls.buf.p, (size_t)size, SLOT, tm_seed(ctx));
    if (!ls.cur)
        return tm_skip(ctx, "cannot allocate the chain index");
    if (hog == 0)
        return TM_OK;
    rc = tm_membuf_get(ctx, &ls.hogbuf, (size_t)hog, 1);
    if (rc != TM_OK)
        return rc;
    if (tm_os_thread_create(&ls.t, streamer, &ls) != 0)
        return tm_fail(ctx, "cannot create the streaming thread");
    ls.started = 1;
    while (!ls.ready && !ls.stop)
        tm_os_yield();
    return TM_OK;
}

static void run_lat_shared(tm_ctx *ctx, uint64_t iters)
{
    lat_shared_state *st = ctx->user;
    st->cur = tm_chase(st->cur, iters);
}

static void teardown_lat_shared(tm_ctx *ctx)
{
    lat_shared_state *st = ctx->user;
    if (!st)
        return;
    if (st->started) {
        st->stop = 1;
        tm_os_thread_join(st->t);
    }
    tm_membuf_put(&st->hogbuf);
    tm_membuf_put(&st->buf);
    ctx->user = NULL;
}

TM_BENCH(mem_lat_shared) = {
    .name = "mem.lat_shared",
    .summary = "dependent load in a random chase (huge pages) while another CPU streams a buffer",
    .unit = "load",
    .ops_per_iter = 64,
    .requires = TM_REQ_THREADS | TM_REQ_MULTICORE,
    .stat = TM_STAT_MIN,
    .params = {{"size", "1M,4M,16M", "working set of the chase in bytes"},
               {"hog", "0,64M", "bytes the other CPU streams through (0: it stays idle)"}},
    .setup = setup_lat_shared,
    .run = run_lat_shared,
    .teardown = teardown_lat_shared,
};
