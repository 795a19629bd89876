/* Handle types of the FreeRTOS port: a thread is a task with a small record of its own (its
 * function, argument and end; see thread.c), a mutex holds a FreeRTOS mutex handle, and there
 * are no processes. */
#ifndef TM_PORT_TYPES_H
#define TM_PORT_TYPES_H

typedef struct tm_rtos_thread *tm_os_thread;
typedef struct tm_os_mutex {
    void *handle; /* SemaphoreHandle_t of xSemaphoreCreateMutex() */
} tm_os_mutex;
typedef int tm_os_pid;

#endif
