/* POSIX message queues on Zephyr 2.7, with one difference handled: a queue whose name is
 * unlinked while it is open stays on the layer's list with no name, and the next mq_open that
 * searches the list compares that missing name (a null pointer). port/posix/prim_queue.c
 * unlinks a queue's name as soon as it is open (nothing is left behind on Linux); here the
 * unlink of an open queue's name is done when the queue is closed (mq.c), before the close
 * frees it. */
#ifndef TM_ZEPHYR_MQUEUE_H
#define TM_ZEPHYR_MQUEUE_H

#include_next <mqueue.h>

mqd_t tm_zephyr_mq_open(const char *name, int oflags, mode_t mode, struct mq_attr *attr);
int tm_zephyr_mq_unlink(const char *name);
int tm_zephyr_mq_close(mqd_t q);

#define mq_open tm_zephyr_mq_open
#define mq_unlink tm_zephyr_mq_unlink
#define mq_close tm_zephyr_mq_close

#endif
