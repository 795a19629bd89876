/* sys.read — read(2) of one byte from /dev/zero.
 * One operation: one read call returning one byte. Timed: the calls only; opening and closing
 * /dev/zero happen in setup/teardown. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

static int fd = -1;

static int setup(tm_ctx *ctx)
{
    fd = tm_os_open("/dev/zero", TM_O_READ);
    return fd < 0 ? tm_skip(ctx, "cannot open /dev/zero") : TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    char c;
    long got = 0;
    while (iters--) {
        got += tm_os_read(fd, &c, 1); got += tm_os_read(fd, &c, 1);
        got += tm_os_read(fd, &c, 1); got += tm_os_read(fd, &c, 1);
        got += tm_os_read(fd, &c, 1); got += tm_os_read(fd, &c, 1);
        got += tm_os_read(fd, &c, 1); got += tm_os_read(fd, &c, 1);
        got += tm_os_read(fd, &c, 1); got += tm_os_read(fd, &c, 1);
    }
    if (got < 0)
        tm_fail(ctx, "read from /dev/zero failed");
    tm_sink = (uint64_t)got;
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (fd >= 0)
        tm_os_close(fd);
    fd = -1;
}

TM_BENCH(sys_read) = {
    .name = "sys.read",
    .summary = "read(2) of 1 byte from /dev/zero",
    .unit = "call",
    .ops_per_iter = 10,
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
