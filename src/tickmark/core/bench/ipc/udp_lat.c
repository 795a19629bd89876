/* ipc.udp_lat — one operation is one round trip of a 1-byte message between this process and
 * an echo child over two connected UDP sockets on 127.0.0.1 (lmbench lat_udp): our send, the child's
 * receive and send back, our receive. cross=0 pins both to one CPU (two context switches per
 * round trip), cross=1 to two CPUs (two cross-CPU wake-ups). Timed: the four calls and the
 * switches or wake-ups. Not timed: opening the channel, fork, teardown. Each round trip is
 * also timed alone (tm_ticks) into the histogram. */
#include "../common/twoparty.h"

static int setup(tm_ctx *ctx) { return tp_lat_setup(ctx, TM_SOCK_UDP, 1); }

TM_BENCH(ipc_udp_lat) = {
    .name = "ipc.udp_lat",
    .summary = "1-byte round trip between two processes over UDP on 127.0.0.1",
    .unit = "round trip",
    .requires = TM_REQ_SOCKETS,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS,
    .params = {TP_CROSS_PARAM},
    .setup = setup,
    .run = tp_lat_run,
    .teardown = tp_channel_teardown,
};
