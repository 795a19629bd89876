/* What bare metal does not have: processes, files, pipes, sockets, signals, a kernel to trap
 * into. tm_port_caps() leaves these out, so the benchmarks that need them skip before calling
 * any of this; the functions exist so that one program holds every benchmark, and each fails as
 * osal.h says. (Semaphores and the like are in sync.c, priorities in prio.c: an RTOS port
 * replaces those files and keeps this one; programs to start are in noexec.c.) */
#include <stdio.h>
#include <stdlib.h>

#include "runner.h"
#include "tickmark/osal_prim.h"

long tm_os_null_syscall(void) { return -1; }

tm_os_pid tm_os_fork(void) { return -1; }
void tm_os_exit_now(int code) { _Exit(code); }
int tm_os_wait(tm_os_pid pid, int *status)
{
    (void)pid;
    (void)status;
    return -1;
}
int tm_os_kill(tm_os_pid pid, int sig)
{
    (void)pid;
    (void)sig;
    return -1;
}
int tm_os_peer_init(tm_os_pid parent)
{
    (void)parent;
    return -1;
}
tm_os_pid tm_os_getpid(void) { return 1; }
const char *tm_os_self_exe(void) { return NULL; }

int tm_os_open(const char *path, int flags)
{
    (void)path;
    (void)flags;
    return -1;
}
int tm_os_close(int fd)
{
    (void)fd;
    return -1;
}
long tm_os_read(int fd, void *buf, size_t n)
{
    (void)fd;
    (void)buf;
    (void)n;
    return -1;
}
long tm_os_write(int fd, const void *buf, size_t n)
{
    (void)fd;
    (void)buf;
    (void)n;
    return -1;
}
long tm_os_pread(int fd, void *buf, size_t n, uint64_t off)
{
    (void)fd;
    (void)buf;
    (void)n;
    (void)off;
    return -1;
}
int tm_os_stat_size(const char *path, uint64_t *size)
{
    (void)path;
    (void)size;
    return -1;
}
int tm_os_fstat_size(int fd, uint64_t *size)
{
    (void)fd;
    (void)size;
    return -1;
}
int tm_os_unlink(const char *path)
{
    (void)path;
    return -1;
}
int tm_os_pipe(int fds[2])
{
    (void)fds;
    return -1;
}
void *tm_os_map_lazy(size_t bytes)
{
    (void)bytes;
    return NULL;
}

int tm_os_sig_install(int tm_sig, void (*handler)(int))
{
    (void)tm_sig;
    (void)handler;
    return -1;
}
int tm_os_sig_default(int tm_sig)
{
    (void)tm_sig;
    return -1;
}
int tm_os_sig_send(tm_os_pid pid, int tm_sig)
{
    (void)pid;
    (void)tm_sig;
    return -1;
}
int tm_os_sig_raise(int tm_sig)
{
    (void)tm_sig;
    return -1;
}

int tm_os_sock_pair(int kind, int fds[2])
{
    (void)kind;
    (void)fds;
    return -1;
}
int tm_os_tcp_listen(unsigned *port)
{
    (void)port;
    return -1;
}
int tm_os_tcp_connect(unsigned port)
{
    (void)port;
    return -1;
}
int tm_os_tcp_accept(int listen_fd)
{
    (void)listen_fd;
    return -1;
}
