/* Loopback sockets for the ipc benchmarks (osal_prim.h). Everything binds to 127.0.0.1 on
 * an ephemeral port; nothing listens longer than the benchmark that opened it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tickmark/osal_prim.h"

static void loopback(struct sockaddr_in *a, unsigned port)
{
    memset(a, 0, sizeof *a);
    a->sin_family = AF_INET;
    a->sin_port = htons((unsigned short)port);
    a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
}

static int bound_port(int fd, unsigned *port)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    if (getsockname(fd, (struct sockaddr *)&a, &len) != 0)
        return -1;
    *port = ntohs(a.sin_port);
    return 0;
}

static void reset_on_close(int fd)
{
    struct linger l;
    int one = 1;
    l.l_onoff = 1;
    l.l_linger = 0;
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int tm_os_tcp_listen(unsigned *port)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    loopback(&a, 0);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 64) != 0 || bound_port(fd, port) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int tm_os_tcp_connect(unsigned port)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    reset_on_close(fd);
    loopback(&a, port);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int tm_os_tcp_accept(int listen_fd)
{
    int fd = accept(listen_fd, NULL, NULL);
    if (fd >= 0)
        reset_on_close(fd);
    return fd;
}

static int udp_bound(unsigned *port)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return -1;
    loopback(&a, 0);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || bound_port(fd, port) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int udp_connect(int fd, unsigned port)
{
    struct sockaddr_in a;
    loopback(&a, port);
    return connect(fd, (struct sockaddr *)&a, sizeof a);
}

int tm_os_sock_pair(int kind, int fds[2])
{
    unsigned p0, p1;
    int l;
    switch (kind) {
    case TM_SOCK_UNIX_STREAM: return socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
    case TM_SOCK_UNIX_DGRAM: return socketpair(AF_UNIX, SOCK_DGRAM, 0, fds);
    case TM_SOCK_TCP:
        if ((l = tm_os_tcp_listen(&p0)) < 0)
            return -1;
        fds[0] = tm_os_tcp_connect(p0);
        fds[1] = fds[0] >= 0 ? tm_os_tcp_accept(l) : -1;
        close(l);
        if (fds[1] < 0) {
            if (fds[0] >= 0)
                close(fds[0]);
            return -1;
        }
        return 0;
    case TM_SOCK_UDP:
        fds[0] = udp_bound(&p0);
        fds[1] = fds[0] >= 0 ? udp_bound(&p1) : -1;
        if (fds[1] < 0 || udp_connect(fds[0], p1) != 0 || udp_connect(fds[1], p0) != 0) {
            if (fds[0] >= 0)
                close(fds[0]);
            if (fds[1] >= 0)
                close(fds[1]);
            return -1;
        }
        return 0;
    default: return -1;
    }
}
