/* Helpers shared by the benchmarks of one file (sys.read, sys.write, sys.fstat, sys.stat,
 * sys.open_close): a device opened in set-up, or a file made in the private scratch folder (kept
 * open, or closed again when only its path is wanted), and both closed and removed in teardown.
 * Not a benchmark itself; nothing here is timed. */
#ifndef TICKMARK_ONEFILE_H
#define TICKMARK_ONEFILE_H

#include "tickmark/bench.h"

typedef struct {
    int fd;         /* the open descriptor, -1 when none is open */
    char path[600]; /* the file made in the scratch folder, "" when none */
} of_file;

#define OF_NONE {-1, ""}

/* Both make f the file of_teardown releases (ctx->user), whether or not they succeed. */

/* Open a device (/dev/zero, /dev/null) with TM_O_* flags -> TM_OK, or a skip that names it. */
int of_open_device(tm_ctx *ctx, of_file *f, const char *device, int flags);

/* Make the empty file NAME in the scratch folder and keep it open with TM_O_* flags (besides
 * create and truncate), or with flags 0 close it again -> TM_OK, or a skip. */
int of_make_scratch(tm_ctx *ctx, of_file *f, const char *name, int flags);

/* Close what is open and remove what was made. */
void of_release(of_file *f);

/* The teardown of a benchmark of one file: of_release of the file its set-up opened or made. */
void of_teardown(tm_ctx *ctx);

#endif
