/* sys.open_close — open(2) then close(2) of an existing file in the scratch directory.
 * One operation: one open + one close pair. Timed: both calls; the file is made in setup. */
#include "../common/onefile.h"
#include "tickmark/osal.h"

static of_file file = OF_NONE;

static int setup(tm_ctx *ctx) { return of_make_scratch(ctx, &file, "open-target", 0); }

static void run(tm_ctx *ctx, uint64_t iters)
{
    const char *path = file.path;
    int bad = 0;
    while (iters--) {
        int fd = tm_os_open(path, TM_O_READ);
        bad |= fd < 0;
        tm_os_close(fd);
    }
    if (bad)
        tm_fail(ctx, "open of %s failed", path);
}

TM_BENCH(sys_open_close) = {
    .name = "sys.open_close",
    .summary = "open(2) + close(2) of a file in a private temporary directory",
    .unit = "pair",
    .requires = TM_REQ_SYSCALLS | TM_REQ_FILES,
    .setup = setup,
    .run = run,
    .teardown = of_teardown,
};
