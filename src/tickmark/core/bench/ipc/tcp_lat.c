/* ipc.tcp_lat — one operation is one round trip of a message of msg bytes (default 1, the key then
 * without msg) between this process and an echo child over a TCP connection on 127.0.0.1 with
 * TCP_NODELAY (lmbench lat_tcp): we write all msg bytes, the child reads them all and writes them
 * back, we read them all (the child answers only once it has the whole message, so no channel
 * buffer, however small, can hold both sides in a write). cross=0 pins both to one CPU (two
 * context switches per round trip at least), cross=1 to two CPUs (two cross-CPU wake-ups at
 * least). Timed: both sides' writes, reads and copies of msg bytes each way, and the switches or
 * wake-ups. Not timed: opening the channel, fork, teardown. Each round trip is also timed alone
 * (tm_ticks) into the histogram. */
#include "../common/twoparty.h"

static int setup(tm_ctx *ctx) { return tp_lat_setup(ctx, TM_SOCK_TCP, tm_param(ctx, "msg")); }

TM_BENCH(ipc_tcp_lat) = {
    .name = "ipc.tcp_lat",
    .summary = "round trip of msg bytes (default 1) between two processes over TCP on 127.0.0.1",
    .unit = "round trip",
    .requires = TM_REQ_SOCKETS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .params = {TP_CROSS_PARAM, TP_LAT_MSG_PARAM},
    .ranges = TP_MSG_RANGE,
    .unkeyed = "msg=1",
    .setup = setup,
    .run = tp_lat_run,
    .teardown = tp_channel_teardown,
};
