/* sys.write — write(2) of one byte to /dev/null.
 * One operation: one write call of one byte. Timed: the calls only; open/close are outside. */
#include "../common/onefile.h"
#include "tickmark/osal.h"

static of_file file = OF_NONE;

static int setup(tm_ctx *ctx) { return of_open_device(ctx, &file, "/dev/null", TM_O_WRITE); }

static void run(tm_ctx *ctx, uint64_t iters)
{
    const int fd = file.fd;
    const char c = 'x';
    long put = 0;
    while (iters--)
        TM_REPEAT(put += tm_os_write(fd, &c, 1));
    if (put < 0)
        tm_fail(ctx, "write to /dev/null failed");
    tm_sink = (uint64_t)put;
}

TM_BENCH(sys_write) = {
    .name = "sys.write",
    .summary = "write(2) of 1 byte to /dev/null",
    .unit = "call",
    .ops_per_iter = TM_REPEAT_COUNT,
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = of_teardown,
};
