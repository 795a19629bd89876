/* sys.read — read(2) of one byte from /dev/zero.
 * One operation: one read call returning one byte. Timed: the calls only; opening and closing
 * /dev/zero happen in setup/teardown. */
#include "../common/onefile.h"
#include "tickmark/osal.h"

static of_file file = OF_NONE;

static int setup(tm_ctx *ctx) { return of_open_device(ctx, &file, "/dev/zero", TM_O_READ); }

static void run(tm_ctx *ctx, uint64_t iters)
{
    const int fd = file.fd;
    char c;
    long got = 0;
    while (iters--)
        TM_REPEAT(got += tm_os_read(fd, &c, 1));
    if (got < 0)
        tm_fail(ctx, "read from /dev/zero failed");
    tm_sink = (uint64_t)got;
}

TM_BENCH(sys_read) = {
    .name = "sys.read",
    .summary = "read(2) of 1 byte from /dev/zero",
    .unit = "call",
    .ops_per_iter = TM_REPEAT_COUNT,
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = of_teardown,
};
