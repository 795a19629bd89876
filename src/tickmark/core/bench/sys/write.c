/* sys.write — write(2) of one byte to /dev/null.
 * One operation: one write call of one byte. Timed: the calls only; open/close are outside. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

static int fd = -1;

static int setup(tm_ctx *ctx)
{
    fd = tm_os_open("/dev/null", TM_O_WRITE);
    return fd < 0 ? tm_skip(ctx, "cannot open /dev/null") : TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    const char c = 'x';
    long put = 0;
    while (iters--) {
        put += tm_os_write(fd, &c, 1); put += tm_os_write(fd, &c, 1);
        put += tm_os_write(fd, &c, 1); put += tm_os_write(fd, &c, 1);
        put += tm_os_write(fd, &c, 1); put += tm_os_write(fd, &c, 1);
        put += tm_os_write(fd, &c, 1); put += tm_os_write(fd, &c, 1);
        put += tm_os_write(fd, &c, 1); put += tm_os_write(fd, &c, 1);
    }
    if (put < 0)
        tm_fail(ctx, "write to /dev/null failed");
    tm_sink = (uint64_t)put;
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (fd >= 0)
        tm_os_close(fd);
    fd = -1;
}

TM_BENCH(sys_write) = {
    .name = "sys.write",
    .summary = "write(2) of 1 byte to /dev/null",
    .unit = "call",
    .ops_per_iter = 10,
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
