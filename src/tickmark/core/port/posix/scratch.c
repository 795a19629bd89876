/* The private scratch directory: $TMPDIR/tickmark-<pid of the runner>, created on demand,
 * emptied and removed by the runner after every benchmark instance (a crashed instance too). */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"
#include "tickmark/osal.h"

static char scratch[512];

static void scratch_name(void)
{
    const char *base = getenv("TMPDIR");
    if (scratch[0])
        return;
    snprintf(scratch, sizeof scratch, "%s/tickmark-%ld", base && *base ? base : "/tmp", (long)getpid());
}

const char *tm_os_scratch_dir(void)
{
    scratch_name();
    mkdir(scratch, 0700);
    return scratch;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path); /* keep going past anything that cannot be removed */
    return 0;
}

void tm_os_scratch_clean(void)
{
    struct stat st;
    scratch_name();
    if (stat(scratch, &st) == 0)
        nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
