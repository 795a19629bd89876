/* Semaphores and condition variables for the sync benchmarks (osal_prim.h); spin locks: prim_spin.c. */
#include <pthread.h>
#include <errno.h>
#include <semaphore.h>
#include <stdlib.h>

#include "tickmark/osal_prim.h"

struct tm_os_sem { sem_t s; };
struct tm_os_cond { pthread_cond_t c; };

tm_os_sem *tm_os_sem_create(unsigned value)
{
    tm_os_sem *s = malloc(sizeof *s);
    if (s && sem_init(&s->s, 0, value) != 0) {
        free(s);
        s = NULL;
    }
    return s;
}

int tm_os_sem_post(tm_os_sem *s) { return sem_post(&s->s); }

int tm_os_sem_wait(tm_os_sem *s)
{
    int r;
    while ((r = sem_wait(&s->s)) != 0 && errno == EINTR)
        ;
    return r;
}

void tm_os_sem_destroy(tm_os_sem *s)
{
    if (s) {
        sem_destroy(&s->s);
        free(s);
    }
}

tm_os_cond *tm_os_cond_create(void)
{
    tm_os_cond *c = malloc(sizeof *c);
    if (c && pthread_cond_init(&c->c, NULL) != 0) {
        free(c);
        c = NULL;
    }
    return c;
}

int tm_os_cond_wait(tm_os_cond *c, tm_os_mutex *m) { return pthread_cond_wait(&c->c, m) ? -1 : 0; }
int tm_os_cond_signal(tm_os_cond *c) { return pthread_cond_signal(&c->c) ? -1 : 0; }

void tm_os_cond_destroy(tm_os_cond *c)
{
    if (c) {
        pthread_cond_destroy(&c->c);
        free(c);
    }
}
