/* The port contract: everything a benchmark or the runner asks of the operating system.
 *
 * A port is one folder under port/ (posix, linux; later baremetal, an RTOS). Files in a more
 * specific port replace the file of the same name in port/posix (see the Makefile), so a port
 * fills in only what differs. Benchmarks include this header and never call the OS directly;
 * a port that lacks a capability leaves it out of tm_port_caps() and the benchmarks that need
 * it report "skip: <reason>".
 *
 * Conventions: functions return 0 or a non-negative value on success and -1 on failure.
 * The per-port header tm_port_types.h supplies the concrete handle types.
 */
#ifndef TICKMARK_OSAL_H
#define TICKMARK_OSAL_H

#include <stddef.h>
#include <stdint.h>

#include "tm_port_types.h"

/* ---- identity and capabilities ---- */
const char *tm_port_name(void);  /* "linux", "posix", ... */
unsigned tm_port_caps(void);     /* TM_REQ_* bits the port provides */

/* The OS's own names for itself, for the hello record (uname() where the port has it): fills
 * the buffers ("Linux", "6.1.0-18-arm64", "aarch64") and returns 0, or -1 if unknown. */
int tm_os_uname(char *sys, char *release, char *machine, size_t n);

/* Arguments for a target that has no command line (bare metal, an RTOS task): one line such
 * as "run sys.* --samples 5", or "" for none. The core uses it when it is started without
 * arguments. The posix port returns TM_BUILTIN_ARGS (compiled in, default ""); a bare-metal
 * port may compile them in the same way or read one line from its console. */
const char *tm_port_args(void);

/* ---- time ---- */
uint64_t tm_os_now_ns(void);       /* monotonic clock, nanoseconds */
uint64_t tm_os_clock_res_ns(void); /* resolution the OS claims for it */
const char *tm_os_clock_name(void);

/* ---- CPUs and scheduling ---- */
int tm_os_cpu_count(void);        /* online CPUs */
int tm_os_cpu_current(void);      /* CPU this thread runs on, -1 if unknown */
int tm_os_pin_cpu(int cpu);       /* pin the calling thread; -1 if unsupported */
int tm_os_yield(void);
long tm_os_nivcsw(void);          /* involuntary context switches of this thread so far, -1 unknown */
long tm_os_minflt(void);          /* minor page faults of this process so far, -1 unknown */

/* Process-wide usage so far (all threads of this process, not its children): CPU time (user +
 * system) in ns, context switches (voluntary + involuntary), page faults. The software counters
 * of benchmarks that run without perf counters come from it. Returns -1 if unknown. */
typedef struct tm_os_usage {
    uint64_t cpu_ns, switches, faults;
} tm_os_usage;
int tm_os_usage_now(tm_os_usage *u);

/* ---- the null system call ---- */
long tm_os_null_syscall(void);    /* a real trap into the kernel (getppid), never a cached value */

/* ---- kernel entry (bench/trap/) ----
 * The ways into the kernel that trap.* times: a system call (SVC, ecall, syscall), a data abort
 * (a load the memory system refuses), an undefined instruction, and an interrupt raised by
 * software. A port that owns the exception vectors (bare metal) installs a minimal handler of
 * its own; a port with a kernel (Linux) uses the kernel's path (a null system call, a signal
 * whose handler skips the faulting instruction). tm_os_trap_open() installs the handler of one
 * kind and returns NULL, or why it cannot (the benchmark skips with it: "the port has no
 * handler for it", "no MPU"); tm_os_trap_run() makes n such entries, each in the control loop's
 * shape (runner.h: tm_arch_trap_*), and returns NULL, or what went wrong (no fault where one was
 * due, an interrupt lost: the benchmark fails with it); tm_os_trap_close() puts back what open
 * changed. A port without any (port/posix/trap.c) answers open with its reason. */
enum { TM_TRAP_CALL, TM_TRAP_ABORT, TM_TRAP_UNDEF, TM_TRAP_IRQ };
const char *tm_os_trap_open(int kind);
const char *tm_os_trap_run(int kind, uint64_t n);
void tm_os_trap_close(int kind);

/* ---- interrupt to thread (bench/irq/) ----
 * A software-raised interrupt (the one trap.irq raises) whose handler is the benchmark's own C
 * function, taken through the system's own interrupt path: the bare-metal vector, the RTOS's
 * dispatch. tm_os_irq_attach() installs isr at a priority from which it may call the system
 * (tm_os_sem_post_from_isr) and returns NULL, or why it cannot; tm_os_irq_raise() raises it
 * once and returns after it was taken; tm_os_irq_raise_loop() raises it n times in the control
 * loop's shape (runner.h: tm_arch_trap_store), so that subtracting the control loop leaves the
 * raise, the way in, the handler and the way back; tm_os_irq_detach() puts back what attach
 * changed. A port without (port/posix/irq.c) answers attach with its reason. */
const char *tm_os_irq_attach(void (*isr)(void));
void tm_os_irq_raise(void);
void tm_os_irq_raise_loop(uint64_t n);
void tm_os_irq_detach(void);

/* ---- memory ---- */
void *tm_os_alloc(size_t bytes);            /* general heap (malloc) */
void tm_os_free(void *p);
void *tm_os_map(size_t bytes);              /* page-aligned, zeroed, released with tm_os_unmap */
int tm_os_unmap(void *p, size_t bytes);
size_t tm_os_page_size(void);
/* Advise a mapping for (on=1) or against (on=0) transparent huge pages; -1 where the OS cannot
 * honour the request (no huge pages, or disabled system-wide), and the pages stay as they are. */
int tm_os_huge_advise(void *p, size_t bytes, int on);
/* Bytes of [p, p+bytes) that the OS backs with huge pages right now; -1 where it cannot tell. */
int64_t tm_os_huge_bytes(const void *p, size_t bytes);
/* Fault in every page of [p, p+bytes) for writing in one call (cheaper than a fault per page);
 * -1 where the OS cannot, and then the caller writes to each page itself. */
int tm_os_populate(void *p, size_t bytes);
uint64_t tm_os_mem_available(void); /* bytes allocatable without swapping; 0 if unknown */

/* ---- caches (a benchmark's cold calls: bench.h's .cold) ----
 * Evict from the caches, and from the TLB, what they hold of the benchmark, before the runner
 * times one cold call: 0 once done, with what it did in how ("read 512 MiB: twice the 256 MiB
 * last-level cache"); -1 where the port cannot, with why in how (the cold sub-metric skips with
 * those words). Every port that can uses tm_flush_walk() (runner.h) over a buffer sized for its
 * caches: the kernel's cache sizes on Linux, the board description's BM_CACHE_BYTES on bare
 * metal and the RTOSes. */
int tm_os_flush_caches(char *how, size_t len);

/* ---- threads and synchronisation ---- */
int tm_os_thread_create(tm_os_thread *t, void *(*fn)(void *), void *arg);
int tm_os_thread_join(tm_os_thread t);
int tm_os_mutex_init(tm_os_mutex *m);
int tm_os_mutex_lock(tm_os_mutex *m);
int tm_os_mutex_unlock(tm_os_mutex *m);
int tm_os_mutex_destroy(tm_os_mutex *m);

/* ---- processes (TM_REQ_PROCESSES) ---- */
tm_os_pid tm_os_fork(void);                 /* 0 in the child, -1 on failure */
void tm_os_exit_now(int code);              /* leave without flushing stdio */
int tm_os_wait(tm_os_pid pid, int *status); /* blocking wait; status as the OS reports it */
int tm_os_kill(tm_os_pid pid, int sig);

/* ---- files and pipes (TM_REQ_FILES, TM_REQ_PIPES) ---- */
int tm_os_open(const char *path, int flags_rw_create); /* see TM_O_* */
int tm_os_close(int fd);
long tm_os_read(int fd, void *buf, size_t n);
long tm_os_write(int fd, const void *buf, size_t n);
int tm_os_stat_size(const char *path, uint64_t *size);
int tm_os_fstat_size(int fd, uint64_t *size);
int tm_os_unlink(const char *path);
int tm_os_pipe(int fds[2]);
enum { TM_O_READ = 1, TM_O_WRITE = 2, TM_O_CREATE = 4, TM_O_TRUNC = 8 };

/* A private scratch directory for file benchmarks (created on first use, removed at exit). */
const char *tm_os_scratch_dir(void);

#endif
