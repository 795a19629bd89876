/* What the files of the FreeRTOS port share: the priority the core's task and its threads run
 * at, the stack of a thread, and the hooks the kernel calls (hooks.c). */
#ifndef TM_RTOS_H
#define TM_RTOS_H

#define TM_RTOS_PRIORITY (tskIDLE_PRIORITY + 2)
#define TM_RTOS_THREAD_STACK 4096 /* bytes */

#endif
