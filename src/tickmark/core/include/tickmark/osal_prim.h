/* The port contract, part two: the OS primitives that the sched, sync, thread, proc, signal,
 * ipc, fs and timer benchmark families need beyond osal.h.
 *
 * Same conventions as osal.h: 0 or a non-negative value on success, -1 on failure. Objects
 * whose layout differs between ports (semaphores, condition variables, spin locks) are opaque
 * handles created and destroyed by the port. The wrappers are thin: each is the one OS call
 * it names and nothing more, so that a benchmark times the OS, not the port.
 * posix implements all of this; linux overrides prim_child.c (parent-death signal, the path
 * of the running program).
 */
#ifndef TICKMARK_OSAL_PRIM_H
#define TICKMARK_OSAL_PRIM_H

#include "tickmark/osal.h"

/* ---- semaphores, condition variables, spin locks (TM_REQ_THREADS) ---- */
typedef struct tm_os_sem tm_os_sem;
typedef struct tm_os_cond tm_os_cond;
typedef struct tm_os_spin tm_os_spin;
tm_os_sem *tm_os_sem_create(unsigned value); /* NULL on failure */
int tm_os_sem_post(tm_os_sem *s);
int tm_os_sem_wait(tm_os_sem *s);
void tm_os_sem_destroy(tm_os_sem *s);
/* post from an interrupt handler (bench/irq/), and switch to a thread it readied on the
 * handler's return: 0, or -1 where the port cannot (isr_sem.c of each port) */
int tm_os_sem_post_from_isr(tm_os_sem *s);
tm_os_cond *tm_os_cond_create(void);
int tm_os_cond_wait(tm_os_cond *c, tm_os_mutex *m);
int tm_os_cond_signal(tm_os_cond *c);
void tm_os_cond_destroy(tm_os_cond *c);
tm_os_spin *tm_os_spin_create(void);
int tm_os_spin_lock(tm_os_spin *s);
int tm_os_spin_unlock(tm_os_spin *s);
void tm_os_spin_destroy(tm_os_spin *s);

/* ---- message queues between threads (TM_REQ_THREADS) ---- */
/* A queue of up to depth messages of msg_bytes bytes each, copied in and out: a FreeRTOS queue,
 * a POSIX message queue on Linux. NULL when the port has none (the benchmark skips). Send
 * blocks while the queue is full, receive while it is empty. */
typedef struct tm_os_queue tm_os_queue;
tm_os_queue *tm_os_queue_create(unsigned depth, unsigned msg_bytes);
int tm_os_queue_send(tm_os_queue *q, const void *msg);
int tm_os_queue_recv(tm_os_queue *q, void *msg);
void tm_os_queue_destroy(tm_os_queue *q);

/* ---- processes (TM_REQ_PROCESSES, TM_REQ_EXEC) ---- */
/* Call first thing in a forked child that outlives one operation: the child is killed when
 * its parent dies (PR_SET_PDEATHSIG on linux; elsewhere it relies on EOF of its pipes). */
int tm_os_peer_init(tm_os_pid parent);
tm_os_pid tm_os_getpid(void);
/* Path of the running program, for re-executing it; NULL when the OS cannot tell. */
const char *tm_os_self_exe(void);
/* Re-execute the running program so that it exits at once with status 0, before main()
 * (argument "--exit-now", environment TICKMARK_EXIT_NOW=1). Returns only on failure. */
int tm_os_exec_self_exit(void);
/* The same through the shell: /bin/sh -c '"$0" --exit-now' <self>. Returns only on failure. */
int tm_os_exec_shell_self_exit(void);
/* posix_spawn of the same; returns the child's pid or -1. */
tm_os_pid tm_os_spawn_self_exit(void);
/* Exit code of a wait status, or -1 if the child did not exit normally. */
int tm_os_exit_code(int status);

/* ---- signals (TM_REQ_SIGNALS); portable names, the port maps them ---- */
enum { TM_SIG_USR1 = 1, TM_SIG_USR2 = 2 };
int tm_os_sig_install(int tm_sig, void (*handler)(int)); /* sigaction, SA_RESTART */
int tm_os_sig_default(int tm_sig);                       /* back to SIG_DFL */
int tm_os_sig_send(tm_os_pid pid, int tm_sig);           /* kill(pid, sig) */
int tm_os_sig_raise(int tm_sig);                         /* raise(sig): to the calling thread */

/* ---- sockets (TM_REQ_SOCKETS): loopback only ---- */
enum { TM_SOCK_UNIX_STREAM = 1, TM_SOCK_UNIX_DGRAM, TM_SOCK_TCP, TM_SOCK_UDP };
/* A connected pair of sockets of the kind. TCP: over 127.0.0.1 with TCP_NODELAY, the
 * listening socket closed before return; UDP: two sockets on 127.0.0.1 connected to each
 * other; UNIX: socketpair. */
int tm_os_sock_pair(int kind, int fds[2]);
/* A TCP listening socket on 127.0.0.1, ephemeral port (written to *port). */
int tm_os_tcp_listen(unsigned *port);
/* Connect to 127.0.0.1:port; the socket is set to close with a reset (SO_LINGER 0), so no
 * TIME_WAIT entries pile up. */
int tm_os_tcp_connect(unsigned port);
int tm_os_tcp_accept(int listen_fd); /* accepted socket, also reset-on-close */

/* ---- files ---- */
long tm_os_pread(int fd, void *buf, size_t n, uint64_t off);
/* Anonymous mapping that is not populated and not backed by huge pages, so the first touch
 * of each page faults. Release with tm_os_unmap. */
void *tm_os_map_lazy(size_t bytes);

/* ---- timers and real-time scheduling ---- */
/* Sleep until the absolute monotonic time (ns, tm_os_now_ns() base). */
int tm_os_sleep_until_ns(uint64_t deadline_ns);
/* The finest step in which such a sleep can end (ns): 1 for high-resolution timers, the tick
 * period on an RTOS whose delays count ticks, the clock's resolution for a spin. */
uint64_t tm_os_sleep_res_ns(void);
/* Make the calling thread SCHED_FIFO at prio; a negative prio counts down from the highest
 * there is (-1 the highest, -2 the one below it, ...); returns 0, or -1 with errno text in why. */
int tm_os_set_rt_priority(int prio, const char **why);
int tm_os_set_normal_priority(void);
int tm_os_lock_memory(void); /* mlockall current+future; -1 if not permitted */
void tm_os_unlock_memory(void);

#endif
