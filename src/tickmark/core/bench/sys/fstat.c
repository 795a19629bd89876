/* sys.fstat — fstat(2) of an open descriptor (no path lookup).
 * One operation: one fstat call. Timed: the calls only; the file is made and opened in setup. */
#include <stdio.h>

#include "tickmark/bench.h"
#include "tickmark/osal.h"

static char path[600];
static int fd = -1;

static int setup(tm_ctx *ctx)
{
    snprintf(path, sizeof path, "%s/fstat-target", tm_os_scratch_dir());
    fd = tm_os_open(path, TM_O_READ | TM_O_WRITE | TM_O_CREATE | TM_O_TRUNC);
    return fd < 0 ? tm_skip(ctx, "cannot create a file in %s", tm_os_scratch_dir()) : TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t size = 0;
    int bad = 0;
    while (iters--) {
        bad |= tm_os_fstat_size(fd, &size); bad |= tm_os_fstat_size(fd, &size);
        bad |= tm_os_fstat_size(fd, &size); bad |= tm_os_fstat_size(fd, &size);
        bad |= tm_os_fstat_size(fd, &size); bad |= tm_os_fstat_size(fd, &size);
        bad |= tm_os_fstat_size(fd, &size); bad |= tm_os_fstat_size(fd, &size);
        bad |= tm_os_fstat_size(fd, &size); bad |= tm_os_fstat_size(fd, &size);
    }
    if (bad)
        tm_fail(ctx, "fstat failed");
    tm_sink = size;
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (fd >= 0)
        tm_os_close(fd);
    fd = -1;
    tm_os_unlink(path);
}

TM_BENCH(sys_fstat) = {
    .name = "sys.fstat",
    .summary = "fstat(2) of an open file descriptor",
    .unit = "call",
    .ops_per_iter = 10,
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
