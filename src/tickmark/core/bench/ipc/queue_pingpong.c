/* ipc.queue_pingpong — one operation is one round trip of an 8-byte message between two threads
 * through two message queues: we send on A and receive on B; the partner receives on A and
 * sends the message back, incremented, on B (the answer is checked). The queues are the port's
 * (tm_os_queue_*): a FreeRTOS queue (xQueueSend/xQueueReceive) on FreeRTOS, a POSIX message
 * queue (mq_send/mq_receive) on Linux. cross=0 pins both threads to one CPU (two switches per
 * round trip), cross=1 to two CPUs (two wake-ups). Timed: a batch of sends, receives and
 * switches or wake-ups between two clock reads. Not timed: creating the queues and the
 * partner, stopping it, and the per-event figure (setup): TP_EVENTS round trips, each timed
 * alone (tm_ticks), into the histogram.
 * Cold (sub-metric "cold"): one round trip, alone, after a cache flush (the partner's lines
 * flushed too). */
#include "../common/twoparty.h"

#define QUEUE_DEPTH 4
#define STOP UINT64_MAX

typedef struct {
    tm_os_queue *a, *b;
    tm_os_thread t;
    int cpu;
} qp_state;

static qp_state qp;
static uint64_t sent; /* the message of the next round trip */

/* One round trip: send the message, receive the answer; -1 when a call fails or the answer is
 * not the message plus one (the partner's work). */
static int round_trip(void)
{
    uint64_t back;
    if (tm_os_queue_send(qp.a, &sent) != 0 || tm_os_queue_recv(qp.b, &back) != 0 || back != sent + 1)
        return -1;
    sent = back & 0xffffffffu;
    return 0;
}

static void *partner(void *arg)
{
    qp_state *s = arg;
    uint64_t m;
    if (tm_os_pin_cpu(s->cpu) != 0)
        return NULL;
    while (tm_os_queue_recv(s->a, &m) == 0 && m != STOP) {
        m++;
        if (tm_os_queue_send(s->b, &m) != 0)
            break;
    }
    return NULL;
}

static int setup(tm_ctx *ctx)
{
    int mine, r;
    if ((r = tp_place(ctx, (int)tm_param(ctx, "cross"), &mine, &qp.cpu)) != TM_OK)
        return r;
    qp.a = tm_os_queue_create(QUEUE_DEPTH, sizeof(uint64_t));
    qp.b = qp.a ? tm_os_queue_create(QUEUE_DEPTH, sizeof(uint64_t)) : NULL;
    if (!qp.b) {
        tm_os_queue_destroy(qp.a);
        return tm_skip(ctx, "the %s port has no message queues", tm_port_name());
    }
    if (tm_os_thread_create(&qp.t, partner, &qp) != 0) {
        tm_os_queue_destroy(qp.a);
        tm_os_queue_destroy(qp.b);
        return tm_fail(ctx, "cannot create the partner thread");
    }
    ctx->user = &qp;
    sent = 0;
    if (tp_event_hist(ctx, round_trip, 1) != 0)
        return tm_fail(ctx, "message queue call failed or answered wrong");
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    tp_events(ctx, round_trip, iters, "message queue call failed or answered wrong");
}

static void cold(tm_ctx *ctx)
{
    if (round_trip() != 0)
        tm_fail(ctx, "message queue call failed or answered wrong");
}

static void teardown(tm_ctx *ctx)
{
    uint64_t stop = STOP;
    if (ctx->user) {
        tm_os_queue_send(qp.a, &stop);
        tm_os_thread_join(qp.t);
        tm_os_queue_destroy(qp.a);
        tm_os_queue_destroy(qp.b);
    }
    ctx->user = NULL;
}

TM_BENCH(ipc_queue_pingpong) = {
    .name = "ipc.queue_pingpong",
    .summary = "round trip of an 8-byte message between two threads over two message queues",
    .unit = "round trip",
    .requires = TM_REQ_THREADS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .params = {TP_CROSS_PARAM},
    .setup = setup,
    .run = run,
    .teardown = teardown,
    .cold = cold,
};
