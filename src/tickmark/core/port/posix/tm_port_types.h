/* Handle types of the POSIX port. */
#ifndef TM_PORT_TYPES_H
#define TM_PORT_TYPES_H

#include <pthread.h>
#include <sys/types.h>

typedef pthread_t tm_os_thread;
typedef pthread_mutex_t tm_os_mutex;
typedef pid_t tm_os_pid;

#endif
