/* Message queues between threads (osal_prim.h): a POSIX message queue (mq_open, mq_send,
 * mq_receive), the kernel's own message-passing object on Linux. Its name is unlinked as soon as
 * it is open, so nothing is left behind; the descriptor is what the threads share. */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tickmark/osal_prim.h"

struct tm_os_queue {
    mqd_t mq;
    unsigned msg_bytes;
};

tm_os_queue *tm_os_queue_create(unsigned depth, unsigned msg_bytes)
{
    static unsigned serial;
    char name[64];
    struct mq_attr attr = {0};
    tm_os_queue *q = malloc(sizeof *q);
    if (!q)
        return NULL;
    attr.mq_maxmsg = (long)depth;
    attr.mq_msgsize = (long)msg_bytes;
    snprintf(name, sizeof name, "/tickmark-%ld-%u", (long)tm_os_getpid(), serial++);
    q->mq = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
    if (q->mq == (mqd_t)-1) {
        free(q);
        return NULL;
    }
    mq_unlink(name);
    q->msg_bytes = msg_bytes;
    return q;
}

int tm_os_queue_send(tm_os_queue *q, const void *msg)
{
    int r;
    while ((r = mq_send(q->mq, msg, q->msg_bytes, 0)) != 0 && errno == EINTR)
        ;
    return r ? -1 : 0;
}

int tm_os_queue_recv(tm_os_queue *q, void *msg)
{
    ssize_t n;
    while ((n = mq_receive(q->mq, msg, q->msg_bytes, NULL)) < 0 && errno == EINTR)
        ;
    return n == (ssize_t)q->msg_bytes ? 0 : -1;
}

void tm_os_queue_destroy(tm_os_queue *q)
{
    if (q) {
        mq_close(q->mq);
        free(q);
    }
}
