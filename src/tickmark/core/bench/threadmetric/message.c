/* threadmetric.message — Thread-Metric's message processing: one operation is one 16-byte
 * message sent to a queue and received back by the same thread (so neither call blocks or
 * switches): the cost of the copy in and out and of the queue's bookkeeping. The queue is the
 * system's (osal_prim.h: a FreeRTOS queue, a POSIX message queue on Linux and NuttX), 4 deep.
 * Timed: the sends and receives. Not timed: creating the queue. Each message received must be
 * the one sent, or the run fails. */
#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

#define MSG_WORDS 4 /* 16 bytes */

static tm_os_queue *queue;

static int setup(tm_ctx *ctx)
{
    if (!(queue = tm_os_queue_create(4, MSG_WORDS * sizeof(uint32_t))))
        return tm_skip(ctx, "the %s port has no message queues", tm_port_name());
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint32_t out[MSG_WORDS] = {0, 1, 2, 3}, in[MSG_WORDS];
    uint64_t i;
    for (i = 0; i < iters; i++) {
        out[0] = (uint32_t)i;
        if (tm_os_queue_send(queue, out) != 0 || tm_os_queue_recv(queue, in) != 0) {
            tm_fail(ctx, "a queue call failed");
            return;
        }
        if (in[0] != out[0] || in[3] != out[3]) {
            tm_fail(ctx, "the message received is not the one sent");
            return;
        }
    }
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (queue)
        tm_os_queue_destroy(queue);
    queue = 0;
}

TM_BENCH(threadmetric_message) = {
    .name = "threadmetric.message",
    .summary = "message processing: a 16-byte message sent to a queue and received back by one thread",
    .unit = "message",
    .requires = TM_REQ_THREADS,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
