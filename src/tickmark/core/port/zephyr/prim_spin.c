/* Spin locks on Zephyr: its POSIX layer (2.7) has no pthread_spin_*; the kernel's k_spinlock is
 * the primitive (on one CPU it masks interrupts while held). */
#include <spinlock.h>
#include <stdlib.h>

#include "tickmark/osal_prim.h"

struct tm_os_spin {
    struct k_spinlock lock;
    k_spinlock_key_t key;
};

tm_os_spin *tm_os_spin_create(void) { return calloc(1, sizeof(tm_os_spin)); }

int tm_os_spin_lock(tm_os_spin *s)
{
    s->key = k_spin_lock(&s->lock);
    return 0;
}

int tm_os_spin_unlock(tm_os_spin *s)
{
    k_spin_unlock(&s->lock, s->key);
    return 0;
}

void tm_os_spin_destroy(tm_os_spin *s) { free(s); }
