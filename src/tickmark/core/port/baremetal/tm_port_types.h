/* Handle types of the bare-metal port: no threads or processes (the handles exist so that the
 * benchmarks compile; the functions that would fill them fail), a mutex that is a flag. */
#ifndef TM_PORT_TYPES_H
#define TM_PORT_TYPES_H

typedef int tm_os_thread;
typedef struct tm_os_mutex {
    volatile int locked;
} tm_os_mutex;
typedef int tm_os_pid;

#endif
