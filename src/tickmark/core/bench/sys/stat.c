/* sys.stat — stat(2) of a small file in the private scratch directory (path lookup + inode).
 * One operation: one stat call. Timed: the calls only; the file is made in setup. */
#include <stdio.h>

#include "tickmark/bench.h"
#include "tickmark/osal.h"

static char path[600];

static int setup(tm_ctx *ctx)
{
    int fd;
    snprintf(path, sizeof path, "%s/stat-target", tm_os_scratch_dir());
    fd = tm_os_open(path, TM_O_WRITE | TM_O_CREATE | TM_O_TRUNC);
    if (fd < 0)
        return tm_skip(ctx, "cannot create a file in %s", tm_os_scratch_dir());
    tm_os_close(fd);
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t size = 0;
    int bad = 0;
    while (iters--) {
        bad |= tm_os_stat_size(path, &size); bad |= tm_os_stat_size(path, &size);
        bad |= tm_os_stat_size(path, &size); bad |= tm_os_stat_size(path, &size);
        bad |= tm_os_stat_size(path, &size); bad |= tm_os_stat_size(path, &size);
        bad |= tm_os_stat_size(path, &size); bad |= tm_os_stat_size(path, &size);
        bad |= tm_os_stat_size(path, &size); bad |= tm_os_stat_size(path, &size);
    }
    if (bad)
        tm_fail(ctx, "stat of %s failed", path);
    tm_sink = size;
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    tm_os_unlink(path);
}

TM_BENCH(sys_stat) = {
    .name = "sys.stat",
    .summary = "stat(2) of a file in a private temporary directory",
    .unit = "call",
    .ops_per_iter = 10,
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
