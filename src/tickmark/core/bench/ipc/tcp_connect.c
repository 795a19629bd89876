/* ipc.tcp_connect — one operation is opening a TCP connection to a listening socket on
 * 127.0.0.1 and tearing it down: socket(), connect() (the three-way handshake), accept() and
 * close() of both ends. Both ends close with a reset (SO_LINGER 0), so no TIME_WAIT entries
 * accumulate; lmbench lat_connect times connect() only, against a server process, and lets
 * the server accept and close. Not timed: opening and closing the listening socket. */
#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

static int lfd = -1;
static unsigned port;

static int setup(tm_ctx *ctx)
{
    lfd = tm_os_tcp_listen(&port);
    if (lfd < 0)
        return tm_skip(ctx, "cannot listen on 127.0.0.1: is the loopback interface (lo) up?");
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t i;
    for (i = 0; i < iters; i++) {
        int c = tm_os_tcp_connect(port), a;
        if (c < 0) {
            tm_fail(ctx, "connect to 127.0.0.1:%u failed", port);
            return;
        }
        a = tm_os_tcp_accept(lfd);
        tm_os_close(c);
        if (a < 0) {
            tm_fail(ctx, "accept failed");
            return;
        }
        tm_os_close(a);
    }
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (lfd >= 0)
        tm_os_close(lfd);
    lfd = -1;
}

TM_BENCH(ipc_tcp_connect) = {
    .name = "ipc.tcp_connect",
    .summary = "TCP connect + accept + close of both ends on 127.0.0.1",
    .unit = "connection",
    .requires = TM_REQ_SOCKETS,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
