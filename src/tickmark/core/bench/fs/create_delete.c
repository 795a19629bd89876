/* fs.create_delete — one operation is creating one file of size KiB (open with O_CREAT,
 * write size KiB, close) and later deleting it (unlink), lmbench lat_fs style: each iteration
 * creates 100 files, then deletes the 100; the phases are timed apart into the sub-metrics
 * "create" and "delete" (ns per file). The files live in the runner's private scratch
 * directory, which the runner removes after the instance (also after a crash). Timed: the
 * system calls, including whatever the file system does synchronously. Not timed: building
 * the path names. The figure depends on the file system of the scratch directory. */
#include <stdio.h>
#include <string.h>

#include "tickmark/bench.h"
#include "tickmark/osal.h"

#define NFILES 100

static char path[NFILES][600];
static char data[10 * 1024];

static int setup(tm_ctx *ctx)
{
    int64_t kib = tm_param(ctx, "size");
    const char *dir = tm_os_scratch_dir();
    int i;
    if (kib < 0 || kib > 10)
        return tm_fail(ctx, "size must be 0..10 KiB");
    if (!dir)
        return tm_skip(ctx, "no scratch directory");
    for (i = 0; i < NFILES; i++)
        snprintf(path[i], sizeof path[i], "%s/fs-cd-%03d", dir, i);
    memset(data, 'f', sizeof data);
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    size_t n = (size_t)tm_param(ctx, "size") * 1024;
    uint64_t tc = 0, td = 0, i;
    int k;
    for (i = 0; i < iters; i++) {
        uint64_t t0 = tm_ticks(), t1, t2;
        for (k = 0; k < NFILES; k++) {
            int fd = tm_os_open(path[k], TM_O_WRITE | TM_O_CREATE | TM_O_TRUNC);
            if (fd < 0 || (n && tm_os_write(fd, data, n) != (long)n)) {
                tm_fail(ctx, "cannot create %s", path[k]);
                if (fd >= 0)
                    tm_os_close(fd);
                return;
            }
            tm_os_close(fd);
        }
        t1 = tm_ticks();
        for (k = 0; k < NFILES; k++)
            if (tm_os_unlink(path[k]) != 0) {
                tm_fail(ctx, "cannot delete %s", path[k]);
                return;
            }
        t2 = tm_ticks();
        tc += t1 - t0;
        td += t2 - t1;
    }
    tm_sub_add(ctx, 0, tm_ticks_to_ns(tc));
    tm_sub_add(ctx, 1, tm_ticks_to_ns(td));
}

TM_BENCH(fs_create_delete) = {
    .name = "fs.create_delete",
    .summary = "create (write size KiB) and delete a file in the scratch directory (subs: create, delete)",
    .unit = "file",
    .ops_per_iter = NFILES,
    .requires = TM_REQ_FILES,
    .flags = TM_F_BLOCKING,
    .subs = "create,delete",
    .params = {{"size", "0,1,4,10", "file size in KiB (0..10)"}},
    .setup = setup,
    .run = run,
};
