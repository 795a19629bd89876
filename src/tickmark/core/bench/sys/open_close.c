/* sys.open_close — open(2) then close(2) of an existing file in the scratch directory.
 * One operation: one open + one close pair. Timed: both calls; the file is made in setup. */
#include <stdio.h>

#include "tickmark/bench.h"
#include "tickmark/osal.h"

static char path[600];

static int setup(tm_ctx *ctx)
{
    int fd;
    snprintf(path, sizeof path, "%s/open-target", tm_os_scratch_dir());
    fd = tm_os_open(path, TM_O_WRITE | TM_O_CREATE | TM_O_TRUNC);
    if (fd < 0)
        return tm_skip(ctx, "cannot create a file in %s", tm_os_scratch_dir());
    tm_os_close(fd);
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    int bad = 0;
    while (iters--) {
        int fd = tm_os_open(path, TM_O_READ);
        bad |= fd < 0;
        tm_os_close(fd);
    }
    if (bad)
        tm_fail(ctx, "open of %s failed", path);
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    tm_os_unlink(path);
}

TM_BENCH(sys_open_close) = {
    .name = "sys.open_close",
    .summary = "open(2) + close(2) of a file in a private temporary directory",
    .unit = "pair",
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
