/* ipc.pipe_bw — one operation is receiving one message of msg bytes that a child process
 * sends over a pipe (lmbench bw_pipe). Per batch we ask the child
 * (one 8-byte request) for exactly iters*msg bytes, which it writes in msg-byte writes, and
 * read them all in reads of up to msg bytes, so nothing sits in the buffers between batches.
 * cross=1 puts the child on another CPU (the two sides overlap, every message may need a
 * cross-CPU wake-up); cross=0 on ours (the writer fills the buffer, then the reader drains it).
 * Timed: the request, the writes, the reads and the copies. Not timed: set-up and teardown.
 * Headline: maximum rate (the harness: the best round; bytes_per_op = msg). */
#include "../common/twoparty.h"

static int setup(tm_ctx *ctx) { return tp_bw_setup(ctx, TP_PIPE); }

TM_BENCH(ipc_pipe_bw) = {
    .name = "ipc.pipe_bw",
    .summary = "bandwidth of msg-byte messages from a child over a pipe (lmbench bw_pipe)",
    .unit = "message",
    .requires = TM_REQ_PIPES,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .stat = TM_STAT_MAX_RATE,
    .params = {TP_MSG_PARAM, TP_CROSS_PARAM},
    .ranges = TP_MSG_RANGE,
    .setup = setup,
    .run = tp_bw_run,
    .teardown = tp_channel_teardown,
};
