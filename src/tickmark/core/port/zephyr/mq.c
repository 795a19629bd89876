/* The message queue calls of mqueue.h: mq_open remembers each open queue's name, mq_unlink of
 * an open queue's name waits for its mq_close, which unlinks the name and then closes the
 * queue (Zephyr 2.7's layer frees a queue at its last close only once it is off the list). */
#include <string.h>

#include <mqueue.h>

#undef mq_open
#undef mq_unlink
#undef mq_close

#define OPEN_MAX_TRACKED 32
#define NAME_MAX_LEN CONFIG_MQUEUE_NAMELEN_MAX

static struct {
    mqd_t q;
    char name[NAME_MAX_LEN + 1];
    int unlinked;
} open_queues[OPEN_MAX_TRACKED];

mqd_t tm_zephyr_mq_open(const char *name, int oflags, mode_t mode, struct mq_attr *attr)
{
    mqd_t q = mq_open(name, oflags, mode, attr);
    int i;
    if (q == (mqd_t)-1 || strlen(name) > NAME_MAX_LEN)
        return q;
    for (i = 0; i < OPEN_MAX_TRACKED; i++)
        if (!open_queues[i].q) {
            open_queues[i].q = q;
            strcpy(open_queues[i].name, name);
            open_queues[i].unlinked = 0;
            break;
        }
    return q;
}

int tm_zephyr_mq_unlink(const char *name)
{
    int i;
    for (i = 0; i < OPEN_MAX_TRACKED; i++)
        if (open_queues[i].q && !open_queues[i].unlinked && strcmp(open_queues[i].name, name) == 0) {
            open_queues[i].unlinked = 1;
            return 0;
        }
    return mq_unlink(name);
}

int tm_zephyr_mq_close(mqd_t q)
{
    int i;
    for (i = 0; i < OPEN_MAX_TRACKED; i++)
        if (open_queues[i].q == q) {
            if (open_queues[i].unlinked)
                mq_unlink(open_queues[i].name);
            open_queues[i].q = NULL;
        }
    return mq_close(q);
}
