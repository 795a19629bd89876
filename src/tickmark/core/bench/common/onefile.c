/* The one file of a sys.* benchmark (onefile.h): opened or made in set-up, closed and removed in
 * teardown. Not a benchmark itself; nothing here is timed. */
#include "onefile.h"

#include <stdio.h>

#include "tickmark/osal.h"

int of_open_device(tm_ctx *ctx, of_file *f, const char *device, int flags)
{
    ctx->user = f;
    f->path[0] = '\0';
    f->fd = tm_os_open(device, flags);
    return f->fd < 0 ? tm_skip(ctx, "cannot open %s", device) : TM_OK;
}

int of_make_scratch(tm_ctx *ctx, of_file *f, const char *name, int flags)
{
    ctx->user = f;
    snprintf(f->path, sizeof f->path, "%s/%s", tm_os_scratch_dir(), name);
    f->fd = tm_os_open(f->path, (flags ? flags : TM_O_WRITE) | TM_O_CREATE | TM_O_TRUNC);
    if (f->fd < 0)
        return tm_skip(ctx, "cannot create a file in %s", tm_os_scratch_dir());
    if (!flags) {
        tm_os_close(f->fd);
        f->fd = -1;
    }
    return TM_OK;
}

void of_release(of_file *f)
{
    if (f->fd >= 0)
        tm_os_close(f->fd);
    f->fd = -1;
    if (f->path[0])
        tm_os_unlink(f->path);
    f->path[0] = '\0';
}

void of_teardown(tm_ctx *ctx)
{
    if (ctx->user)
        of_release(ctx->user);
}
