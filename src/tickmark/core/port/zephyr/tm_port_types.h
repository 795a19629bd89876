/* Handle types of the Zephyr port: the POSIX layer's threads and mutexes; a process id is an int
 * (Zephyr has no processes, and its C library no pid_t). */
#ifndef TM_PORT_TYPES_H
#define TM_PORT_TYPES_H

#include <pthread.h>

typedef pthread_t tm_os_thread;
typedef pthread_mutex_t tm_os_mutex;
typedef int tm_os_pid;

#endif
