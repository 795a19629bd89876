/* fs.read_bw — one operation is one pread() of block bytes from a 4 MiB file that is in the
 * page cache (written and read once in setup), going round the file; the figure is the
 * copy-out bandwidth of cached file data (lmbench bw_file_rd io_only). Timed: the pread calls.
 * Not timed: creating, filling and removing the file (in the runner's scratch directory). */
#include <stdio.h>
#include <string.h>

#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

#define FILE_BYTES (4u << 20)
#define MAX_BLOCK (1u << 20)

static char *buf; /* MAX_BLOCK bytes, allocated in setup */
static char path[600];
static int fd = -1;
static uint64_t off;

static int setup(tm_ctx *ctx)
{
    int64_t block = tm_param(ctx, "block");
    const char *dir = tm_os_scratch_dir();
    unsigned i;
    if (block < 512 || block > (int64_t)MAX_BLOCK || FILE_BYTES % block)
        return tm_fail(ctx, "block must be a power of two from 512 B to 1 MiB");
    if (!dir)
        return tm_skip(ctx, "no scratch directory");
    buf = tm_os_alloc(MAX_BLOCK);
    if (!buf)
        return tm_skip(ctx, "cannot allocate %u KiB", MAX_BLOCK >> 10);
    snprintf(path, sizeof path, "%s/fs-read", dir);
    fd = tm_os_open(path, TM_O_READ | TM_O_WRITE | TM_O_CREATE | TM_O_TRUNC);
    if (fd < 0)
        return tm_fail(ctx, "cannot create %s", path);
    memset(buf, 'r', MAX_BLOCK);
    for (i = 0; i < FILE_BYTES / MAX_BLOCK; i++)
        if (tm_os_write(fd, buf, MAX_BLOCK) != (long)MAX_BLOCK)
            return tm_fail(ctx, "cannot write %s", path);
    for (i = 0; i < FILE_BYTES / MAX_BLOCK; i++)
        if (tm_os_pread(fd, buf, MAX_BLOCK, (uint64_t)i * MAX_BLOCK) != (long)MAX_BLOCK)
            return tm_fail(ctx, "cannot read %s back", path);
    ctx->bytes_per_op = (uint64_t)block;
    off = 0;
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    size_t block = (size_t)ctx->bytes_per_op;
    uint64_t i;
    for (i = 0; i < iters; i++) {
        if (tm_os_pread(fd, buf, block, off) != (long)block) {
            tm_fail(ctx, "short read from the cached file");
            return;
        }
        off = (off + block) % FILE_BYTES;
    }
    tm_escape(buf);
}

static void teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (fd >= 0) {
        tm_os_close(fd);
        tm_os_unlink(path);
    }
    fd = -1;
    tm_os_free(buf);
    buf = NULL;
}

TM_BENCH(fs_read_bw) = {
    .name = "fs.read_bw",
    .summary = "read bandwidth of a cached 4 MiB file by pread of block bytes",
    .unit = "read",
    .requires = TM_REQ_FILES,
    .stat = TM_STAT_MAX_RATE,
    .params = {{"block", "64K", "bytes per pread, power of two 512 B .. 1 MiB"}},
    .setup = setup,
    .run = run,
    .teardown = teardown,
};
