/* ipc.pipe_bw — one operation is receiving one message of msg bytes that a child process
 * sends over a pipe (lmbench bw_pipe). Per batch we ask the child
 * (one 8-byte request) for exactly iters*msg bytes, which it writes in msg-byte writes, and
 * read them all in reads of up to msg bytes, so nothing sits in the buffers between batches.
 * cross=1 puts the child on another CPU (the two sides overlap, every message may need a
 * cross-CPU wake-up); cross=0 on ours (the writer fills the buffer, then the reader drains it).
 * Timed: the request, the writes, the reads and the copies. Not timed: set-up and teardown.
 * Headline: the best sample's bandwidth (bytes_per_op = msg). */
#include "../common/twoparty.h"

#define MAX_MSG (1u << 20)

static tp_link lk;
static char buf[MAX_MSG];

static int setup(tm_ctx *ctx)
{
    int64_t msg = tm_param(ctx, "msg");
    int mine, peer, r;
    if (msg < 1 || msg > (int64_t)MAX_MSG)
        return tm_fail(ctx, "msg must be 1 .. 1M bytes");
    if ((r = tp_place(ctx, (int)tm_param(ctx, "cross"), &mine, &peer)) != TM_OK)
        return r;
    ctx->bytes_per_op = (uint64_t)msg;
    ctx->user = &lk;
    return tp_link_open(ctx, &lk, TP_PIPE, peer, TP_SOURCE, (unsigned)msg);
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t n = iters * ctx->bytes_per_op;
    if (tm_os_write(lk.wfd, &n, sizeof n) != (long)sizeof n ||
        tp_read_full(lk.rfd, buf, n, (unsigned)ctx->bytes_per_op, 0) != 0)
        tm_fail(ctx, "the sending child went away");
}

static void teardown(tm_ctx *ctx)
{
    tp_link_close(&lk);
    ctx->user = NULL;
}

TM_BENCH(ipc_pipe_bw) = {
    .name = "ipc.pipe_bw",
    .summary = "bandwidth of msg-byte messages from a child over a pipe (lmbench bw_pipe)",
    .unit = "message",
    .requires = TM_REQ_PROCESSES | TM_REQ_PIPES,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .stat = TM_STAT_MAX_RATE,
    .params = {{"msg", "64K", "message size in bytes (K/M suffixes), up to 1M"}, TP_CROSS_PARAM},
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
