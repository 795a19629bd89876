/* sys.fstat — fstat(2) of an open descriptor (no path lookup).
 * One operation: one fstat call. Timed: the calls only; the file is made and opened in setup. */
#include "../common/onefile.h"
#include "tickmark/osal.h"

static of_file file = OF_NONE;

static int setup(tm_ctx *ctx) { return of_make_scratch(ctx, &file, "fstat-target", TM_O_READ | TM_O_WRITE); }

static void run(tm_ctx *ctx, uint64_t iters)
{
    const int fd = file.fd;
    uint64_t size = 0;
    int bad = 0;
    while (iters--)
        TM_REPEAT(bad |= tm_os_fstat_size(fd, &size));
    if (bad)
        tm_fail(ctx, "fstat failed");
    tm_sink = size;
}

TM_BENCH(sys_fstat) = {
    .name = "sys.fstat",
    .summary = "fstat(2) of an open file descriptor",
    .unit = "call",
    .ops_per_iter = TM_REPEAT_COUNT,
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = of_teardown,
};
