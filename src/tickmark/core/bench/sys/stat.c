/* sys.stat — stat(2) of a small file in the private scratch directory (path lookup + inode).
 * One operation: one stat call. Timed: the calls only; the file is made in setup. */
#include "../common/onefile.h"
#include "tickmark/osal.h"

static of_file file = OF_NONE;

static int setup(tm_ctx *ctx) { return of_make_scratch(ctx, &file, "stat-target", 0); }

static void run(tm_ctx *ctx, uint64_t iters)
{
    const char *path = file.path;
    uint64_t size = 0;
    int bad = 0;
    while (iters--)
        TM_REPEAT(bad |= tm_os_stat_size(path, &size));
    if (bad)
        tm_fail(ctx, "stat of %s failed", path);
    tm_sink = size;
}

TM_BENCH(sys_stat) = {
    .name = "sys.stat",
    .summary = "stat(2) of a file in a private temporary directory",
    .unit = "call",
    .ops_per_iter = TM_REPEAT_COUNT,
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = of_teardown,
};
