/* What the core uses of <stdio.h> beyond Zephyr's minimal C library (stdio.h of this port): no
 * file system is configured, so no file opens (ENOENT) and nothing can be read; stdout and stderr
 * are the console, written character by character as they are printed, so there is nothing to
 * buffer or flush and no error to report. And strtok, over the library's strtok_r. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

char *strtok(char *s, const char *sep)
{
    static char *rest;
    return strtok_r(s, sep, &rest);
}

FILE *fopen(const char *path, const char *mode)
{
    (void)path;
    (void)mode;
    errno = ENOENT;
    return NULL;
}

int fclose(FILE *f)
{
    (void)f;
    return EOF;
}

size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
    (void)buf;
    (void)size;
    (void)n;
    (void)f;
    return 0;
}

int getc(FILE *f)
{
    (void)f;
    return EOF;
}

char *fgets(char *s, int n, FILE *f)
{
    (void)s;
    (void)n;
    (void)f;
    return NULL;
}

int fflush(FILE *f)
{
    (void)f;
    return 0;
}

int ferror(FILE *f)
{
    (void)f;
    return 0;
}

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
    (void)f;
    (void)buf;
    (void)mode;
    (void)size;
    return 0;
}
