/* Files and pipes. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tickmark/osal.h"

int tm_os_open(const char *path, int flags)
{
    int f = (flags & TM_O_READ) && (flags & TM_O_WRITE) ? O_RDWR : (flags & TM_O_WRITE) ? O_WRONLY : O_RDONLY;
    if (flags & TM_O_CREATE)
        f |= O_CREAT;
    if (flags & TM_O_TRUNC)
        f |= O_TRUNC;
    return open(path, f, 0600);
}

int tm_os_close(int fd) { return close(fd); }
long tm_os_read(int fd, void *buf, size_t n) { return (long)read(fd, buf, n); }
long tm_os_write(int fd, const void *buf, size_t n) { return (long)write(fd, buf, n); }
int tm_os_unlink(const char *path) { return unlink(path); }
int tm_os_pipe(int fds[2]) { return pipe(fds); }

int tm_os_stat_size(const char *path, uint64_t *size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    *size = (uint64_t)st.st_size;
    return 0;
}

int tm_os_fstat_size(int fd, uint64_t *size)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -1;
    *size = (uint64_t)st.st_size;
    return 0;
}
