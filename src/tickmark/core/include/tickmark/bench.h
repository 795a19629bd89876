/* The benchmark contract: what a benchmark file provides and what it may call.
 *
 * A benchmark is one file under bench/<family>/ that ends in a descriptor:
 *
 *     TM_BENCH(sys_getppid) = {
 *         .name = "sys.getppid", .summary = "...", .unit = "call",
 *         .ops_per_iter = 10, .run = run_getppid,
 *     };
 *
 * run(ctx, iters) performs iters iterations of the operation body (each iteration does
 * ops_per_iter operations) and nothing else; the runner owns calibration, warm-up, samples,
 * timing and output. Each build collects the TM_BENCH lines into tm_bench_list.h (tools/genlist.sh).
 */
#ifndef TICKMARK_BENCH_H
#define TICKMARK_BENCH_H

#include <stddef.h>
#include <stdint.h>

#define TM_MAX_PARAMS 4
#define TM_MAX_SUBS 6

/* Return codes of setup(). */
#define TM_OK 0
#define TM_SKIP 1
#define TM_FAIL 2

/* What a benchmark needs from the port (tm_port_caps() reports what it has). */
enum {
    TM_REQ_PROCESSES = 1u << 0, /* fork, wait, exit */
    TM_REQ_THREADS = 1u << 1,   /* threads, mutexes, condition variables, semaphores */
    TM_REQ_FILES = 1u << 2,     /* a file system with open/read/write/stat */
    TM_REQ_PIPES = 1u << 3,
    TM_REQ_SOCKETS = 1u << 4,   /* loopback UNIX and TCP/UDP sockets */
    TM_REQ_SIGNALS = 1u << 5,
    TM_REQ_SYSCALLS = 1u << 6,  /* a kernel to trap into */
    TM_REQ_EXEC = 1u << 7,      /* exec of a program file */
    TM_REQ_MULTICORE = 1u << 8, /* at least two CPUs that can be pinned */
    TM_REQ_MMAP = 1u << 9       /* anonymous mmap/munmap, madvise */
};

/* How the headline value of a result is chosen (the harness applies it). */
enum { TM_STAT_MEDIAN = 0, TM_STAT_MIN = 1, TM_STAT_MAX_RATE = 2 };

/* Behaviour flags. */
enum {
    TM_F_BLOCKING = 1u << 0, /* the operation blocks or involves a second party: context
                                switches during a sample are part of it, never retaken */
    TM_F_SLOW = 1u << 1,     /* heavy operation: at least 10 operations per sample */
    TM_F_NO_WARMUP = 1u << 2, /* skip the discarded warm-up sample */
    TM_F_CONTROL = 1u << 3,   /* the control loop itself: no loop overhead is subtracted */
    TM_F_NO_COUNTERS = 1u << 4 /* open no perf counters: each counter the task carries is saved
                                  and restored on every context switch, which costs a switch
                                  benchmark a good part of what it measures */
};

typedef struct tm_ctx tm_ctx;

typedef struct tm_param_def {
    const char *name;  /* e.g. "procs" */
    const char *sweep; /* default values, comma separated integers, K/M/G suffixes allowed */
    const char *help;
} tm_param_def;

typedef struct tm_bench {
    const char *name;        /* hierarchical, stable: "family.what" */
    const char *summary;     /* one line: what one operation is */
    const char *verifies;    /* optional: what the benchmark checks of its own output, in a few
                                words; an instance that ends ok says it ("verified" in its end
                                record). A check that fails calls tm_fail(): status "failed" */
    const char *unit;        /* name of one operation: "call", "switch", "load", "iteration" */
    unsigned ops_per_iter;   /* operations per iteration of run(); 0 means 1 */
    unsigned requires;       /* TM_REQ_* bits */
    unsigned flags;          /* TM_F_* bits */
    int stat;                /* TM_STAT_* */
    const char *subs;        /* optional comma list of sub-metric names ("lock,unlock") */
    tm_param_def params[TM_MAX_PARAMS];
    const char *cpus_param;  /* optional: a parameter that counts CPUs; its default sweep stops
                                at the CPU count of the machine it runs on (tm_param_sweep) */
    const char *ranges;      /* optional: the values parameters allow, "NAME=LO..HI[,NAME=LO..HI]"
                                (K/M/G suffixes): the core refuses others before any instance
                                runs, the harness before a build (it reads them from this source:
                                a string or a macro of one) */
    const char *unkeyed;     /* optional: "NAME=V[,NAME=V]": a value the instance's key leaves out,
                                so that a parameter added later keeps the keys stored before it */
    int (*setup)(tm_ctx *ctx);                    /* optional; TM_OK, or tm_skip()/tm_fail() */
    void (*run)(tm_ctx *ctx, uint64_t iters);     /* required */
    void (*run_x2)(tm_ctx *ctx, uint64_t iters);  /* optional: run() with the body doubled,
                                                     enables differential timing for tiny ops */
    void (*teardown)(tm_ctx *ctx);                /* optional; always called after setup */
    void (*cold)(tm_ctx *ctx);                    /* optional: exactly one operation, alone. Each
                                                     of the instance's first samples gets one cold
                                                     call: the port flushes the caches
                                                     (tm_os_flush_caches), the runner times one
                                                     call of this, and the sample carries it as
                                                     "cold" (ns of that one operation, never in the
                                                     headline). All are made after setup, before
                                                     calibration: the first is the instance's first
                                                     operation after the benchmark before it. */
} tm_bench;

/* The part of the context a benchmark uses directly. */
struct tm_ctx {
    void *user;             /* the benchmark's own state, set by setup */
    uint64_t ops_per_iter;  /* from the descriptor; setup may change it (param dependent) */
    uint64_t bytes_per_op;  /* bytes moved per operation (bandwidth); 0 when not a bandwidth */
    const tm_bench *bench;
    struct tm_runtime *rt;  /* runner private */
};

#define TM_BENCH(id) const tm_bench tm_bench_##id

/* Value of a parameter for this instance (the descriptor's default sweep or --param). */
int64_t tm_param(const tm_ctx *ctx, const char *name);

/* Mark the instance skipped / failed with a reason; both return the matching setup code.
 * tm_fail may be called from run() (e.g. a kernel whose output does not verify): the sample
 * is discarded and the benchmark ends with status "failed". */
int tm_skip(tm_ctx *ctx, const char *fmt, ...);
int tm_fail(tm_ctx *ctx, const char *fmt, ...);
int tm_failed(const tm_ctx *ctx);

/* Sub-metrics: add nanoseconds to sub-metric idx (index in .subs) for the current sample;
 * the harness reports each as ns per operation beside the main figure. */
void tm_sub_add(tm_ctx *ctx, int idx, uint64_t ns);

/* A fact about this instance found in setup (e.g. how much of a buffer got huge pages), sent
 * with the instance's meta record as "info": {key: value}; up to TM_MAX_INFO keys. */
#define TM_MAX_INFO 4
void tm_info(tm_ctx *ctx, const char *key, int64_t value);

/* Per-event latency histogram (log-linear buckets, ~3% resolution); emitted once per instance. */
void tm_hist_add(tm_ctx *ctx, uint64_t ns);

/* This instance's seed for anything random a benchmark builds (pointer chains, shuffled inputs):
 * derived from the run's --seed and the instance key, so one --seed reproduces the same layout
 * whatever order the instances run in. Never derive randomness from the clock. */
uint64_t tm_seed(const tm_ctx *ctx);

/* Clocks for benchmark bodies that time events themselves. */
uint64_t tm_now_ns(void);        /* monotonic nanoseconds */
uint64_t tm_ticks(void);         /* the cheapest raw time counter of the architecture */
uint64_t tm_ticks_to_ns(uint64_t ticks);

/* The control loop: n iterations of an empty counted loop, two instructions each (a count-down
 * and a branch) where the architecture has its own (arch/<arch>/loop.c), else C. loop.control
 * times it, the runner subtracts it from every directly timed benchmark, and a benchmark that
 * wants exactly that overhead writes its loop in the same shape. */
void tm_control_loop(uint64_t n);

/* The cheapest calls (sys.*) are timed TM_REPEAT_COUNT to a loop iteration, so that the loop's
 * own count and branch weigh a tenth as much: TM_REPEAT(s) writes the statement s that many times
 * in a row (unrolled), and the descriptor's .ops_per_iter = TM_REPEAT_COUNT says so. */
#define TM_REPEAT_COUNT 10
#define TM_REPEAT(s)                                                                                      \
    do {                                                                                                  \
        s; s; s; s; s; s; s; s; s; s;                                                                     \
    } while (0)

/* Keep the optimiser from deleting or folding benchmark work. */
#define tm_escape(p) __asm__ __volatile__("" : : "r"(p) : "memory")
#define tm_clobber() __asm__ __volatile__("" : : : "memory")
extern volatile uint64_t tm_sink;
uint64_t tm_opaque(uint64_t x); /* returns x; the compiler cannot know that */

#endif
