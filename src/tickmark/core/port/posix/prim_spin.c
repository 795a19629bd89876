/* Spin locks for the sync benchmarks (osal_prim.h): pthread spin locks. */
#include <pthread.h>
#include <stdlib.h>

#include "tickmark/osal_prim.h"

struct tm_os_spin { pthread_spinlock_t l; };

tm_os_spin *tm_os_spin_create(void)
{
    tm_os_spin *s = malloc(sizeof *s);
    if (s && pthread_spin_init(&s->l, PTHREAD_PROCESS_PRIVATE) != 0) {
        free(s);
        s = NULL;
    }
    return s;
}

int tm_os_spin_lock(tm_os_spin *s) { return pthread_spin_lock(&s->l) ? -1 : 0; }
int tm_os_spin_unlock(tm_os_spin *s) { return pthread_spin_unlock(&s->l) ? -1 : 0; }

void tm_os_spin_destroy(tm_os_spin *s)
{
    if (s) {
        pthread_spin_destroy(&s->l);
        free(s);
    }
}
