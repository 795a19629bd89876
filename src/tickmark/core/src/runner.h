/* Runner-internal declarations shared by the files in src/. */
#ifndef TICKMARK_RUNNER_H
#define TICKMARK_RUNNER_H

#include <stdint.h>
#include <stdio.h>

#include "tickmark/bench.h"

#define TM_VERSION "0.1.0"
/* Table sizes. A port for a target with little RAM lowers the first three in its port.mk. */
#ifndef TM_MAX_GLOBS
#define TM_MAX_GLOBS 4096 /* patterns on the command line */
#endif
#ifndef TM_MAX_ITERS
#define TM_MAX_ITERS 4096 /* --iters KEY=N */
#endif
#ifndef TM_MAX_INSTANCES
#define TM_MAX_INSTANCES 4096 /* benchmark instances in one run */
#endif
#define TM_MAX_OVERRIDES 64
#define TM_MAX_SWEEP 64
#define TM_MAX_OVERRIDE_VALUE 511 /* characters of one --param's values (or --iters' count) */
#define TM_MAX_SAMPLES 1000
#define TM_MAX_COLD 32 /* cold calls of an instance (the first samples' "cold") */
#define TM_HIST_SUB 32 /* sub-buckets per power of two */
#define TM_HIST_BUCKETS (64 * TM_HIST_SUB)

/* One benchmark at one point of its parameter sweep. */
typedef struct tm_instance {
    const tm_bench *bench; /* NULL for the program that tickmark-core exec runs */
    int nparams;
    int64_t values[TM_MAX_PARAMS];
    char key[160];
} tm_instance;

typedef struct tm_override {
    char name[64];  /* parameter name, or instance key for --iters */
    char value[TM_MAX_OVERRIDE_VALUE + 1];
} tm_override;

typedef struct tm_options {
    int text;
    int no_fork;
    int samples;
    int sample_ms;
    int timeout_s;
    int cpu;
    uint64_t seed;
    uint64_t fcore_khz; /* --fcore-khz: known core clock, 0 to calibrate */
    int host_clock;     /* --host-clock: mark records for the host to time, no samples */
    uint64_t iters_all;
    int niters;
    tm_override iters[TM_MAX_ITERS];
    int nparams;
    tm_override params[TM_MAX_OVERRIDES];
} tm_options;

/* Figures measured once at start-up, shared by all instances. */
typedef struct tm_env {
    uint64_t timer_overhead_ps; /* one clock read */
    uint64_t loop_overhead_ps;  /* one iteration of the control loop (tm_control_loop) */
    uint64_t loop_overhead_mcyc; /* the same in thousandths of a cycle, by the cycles counter (0: none) */
    uint64_t fcore_khz;         /* calibrated core frequency, 0 if unknown */
    const char *cycles_method;  /* "perf", "calibrated-freq", "none" */
} tm_env;

/* Runner-private state of one running instance (ctx->rt). */
struct tm_runtime {
    const tm_instance *inst;
    uint64_t seed; /* tm_seed(): the run's seed mixed with the instance key */
    int status; /* TM_OK, TM_SKIP, TM_FAIL */
    char reason[256];
    int nsubs;
    char sub_names[TM_MAX_SUBS][32];
    uint64_t sub_ns[TM_MAX_SUBS];
    int ninfo;
    char info_names[TM_MAX_INFO][32];
    int64_t info_vals[TM_MAX_INFO];
    uint64_t hist[TM_HIST_BUCKETS];
    uint64_t hist_count, hist_min, hist_max, hist_sum;
    int cold;              /* the descriptor's .cold: 1 measured, -1 not (cold_how says why), 0 none */
    int ncold;
    uint64_t cold_ns[TM_MAX_COLD];
    char cold_how[160];    /* what a flush did, or why there was none */
};

/* registry.c */
const tm_bench *const *tm_registry(void);
int tm_glob_match(const char *pattern, const char *name);
int tm_parse_int(const char *s, int64_t *out);
/* Parameter i's range ("LO..HI") and unkeyed value of b's ranges and unkeyed lists, in buf, or NULL. */
const char *tm_param_range(const tm_bench *b, int i, char *buf, size_t len);
const char *tm_param_unkeyed(const tm_bench *b, int i, char *buf, size_t len);
int tm_expand(const tm_bench *b, const tm_options *opt, tm_instance *out, int max, char *err, size_t errlen);
const char *tm_requires_text(unsigned req, char *buf, size_t len);
const char *tm_param_sweep(const tm_bench *b, int i, char *buf, size_t len);
unsigned tm_missing_caps(const tm_bench *b);

/* hist.c */
int tm_hist_index(uint64_t ns);
uint64_t tm_hist_lower(int idx);

/* json.c: a tiny writer of one-line JSON records. A record of any length is written whole: the
 * buffer only batches writes (a longer record goes out in several pieces of one line). */
typedef struct tm_json {
    FILE *out;
    char buf[2048];
    size_t len;
    int need_comma;
} tm_json;
void tm_json_begin(tm_json *j, FILE *out, const char *type); /* starts "TM1 {" on out */
void tm_json_key(tm_json *j, const char *key);
void tm_json_str(tm_json *j, const char *key, const char *value);
void tm_json_int(tm_json *j, const char *key, int64_t value);
void tm_json_uint(tm_json *j, const char *key, uint64_t value);
void tm_json_open(tm_json *j, const char *key, char bracket); /* '{' or '[' ; key may be NULL */
void tm_json_close(tm_json *j, char bracket);
void tm_json_raw_int(tm_json *j, int64_t v); /* array element */
void tm_json_end(tm_json *j);                /* ends the record with "}\n" and flushes */

/* env.c */
/* given_fcore_khz: the core clock when it is known (--fcore-khz), else 0: calibrate it */
void tm_env_measure(tm_env *env, uint64_t given_fcore_khz);
uint64_t tm_fcore_estimate_khz(void);

/* runner.c */
int tm_run_one(const tm_instance *inst, const tm_options *opt, const tm_env *env);
void tm_emit_end(const tm_instance *inst, const char *status, const char *reason, uint64_t wall_ns,
                 const tm_options *opt);
uint64_t tm_calibrate_next(uint64_t n, uint64_t t_ns, uint64_t target_ns);

/* flush.c: the cache flush of the ports that can (osal.h's tm_os_flush_caches): read every
 * line of a buffer of `bytes`, mapped once; how gets what was done ("read 512 MiB: " sized_by),
 * or why it could not be (the buffer does not fit) and -1. */
int tm_flush_walk(size_t bytes, const char *sized_by, char *how, size_t len);
const char *tm_size_text(uint64_t bytes, char *buf, size_t len); /* "512 MiB", "48 KiB" */

/* counters (port): per-thread event counters, perf_event_open on Linux */
#define TM_CTR_MAX 16
int tm_ctr_open(void);                 /* number of events opened for this process */
int tm_ctr_count(void);
const char *tm_ctr_name(int i);
int tm_ctr_read(uint64_t *values);     /* values[tm_ctr_count()], scaled if multiplexed */
int tm_ctr_multiplexed(void);          /* 1 when an event did not count all the time since the read before */
int tm_ctr_kernel_excluded(void);
int tm_ctr_grouped(void);              /* hardware events counted as one group (0: none) */
int tm_ctr_cycles_index(void);        /* index of the cycles event, -1 if not opened */
void tm_ctr_close(void);
const char *tm_ctr_unsupported(void);  /* comma list of events that could not be opened */
const char *tm_ctr_source(void);       /* how the cycles event is counted: "perf", "pmu", ... */

/* Open every event for process pid and the children it starts, counting from its next exec
 * (a program that tickmark-core exec started and holds before its exec) -> the number opened;
 * read and close them as above. 0 where the port cannot count another process. */
int tm_ctr_open_for(long pid);

/* One run of a program (tickmark-core exec; port): started with stdin from /dev/null, stdout
 * into out_path (NULL: discarded) and stderr into err_path; timed from the moment it is let go
 * to exec until it is reaped. Returns 0 when it ran (whatever its exit status), -1 when it could
 * not be started (err says why). */
typedef struct tm_exec_run {
    uint64_t wall_ns;          /* released to exec .. reaped */
    int exited, code;          /* exited: 1 with its exit code; 0: ended by signal `code` */
    int timed_out;             /* outlasted its time limit: killed */
    int interrupted;           /* the core was told to stop (SIGINT, SIGTERM, SIGHUP): killed */
    int have_usage;            /* usage: the program and its children, from the kernel's accounting */
    uint64_t cpu_ns, switches, faults;
    int nctr;                  /* events counted for it (names: tm_ctr_name), else 0 */
    uint64_t ctr[TM_CTR_MAX];
    int multiplexed;
    char err[200];             /* why it could not start; the signal's name when one ended it */
} tm_exec_run;
int tm_os_exec_run(char *const *argv, int timeout_s, const char *out_path, const char *err_path, tm_exec_run *r);
/* Where the system can: the core is sent SIGTERM when the process that started it ends. */
void tm_os_harness_bound(void);

/* isolation (port) */
enum { TM_ISO_OK = 0, TM_ISO_CRASHED, TM_ISO_TIMEOUT, TM_ISO_EXITED, TM_ISO_ERROR };
int tm_os_run_isolated(void (*fn)(void *), void *arg, int timeout_s, char *detail, size_t len);
/* The watch over a child (posix): an alarm after timeout_s seconds (0: none), and SIGINT, SIGTERM,
 * SIGHUP and SIGPIPE to the core caught, without SA_RESTART, so that a wait returns (EINTR);
 * whether the alarm went off, whether the core was told to stop (it stays told). */
void tm_os_watch(int timeout_s);
int tm_os_watch_expired(void);
int tm_os_stop_requested(void);
const char *tm_os_signal_name(int sig, char *buf, size_t len); /* "SIGSEGV", or "signal N" in buf */
void tm_os_scratch_clean(void);

/* arch: the raw time counter behind tm_ticks() */
const char *tm_arch_ticks_name(void);
uint64_t tm_arch_ticks_known_khz(void); /* 0 when the rate must be calibrated */
/* What the processor itself says about its TLBs, for the hello record: adds "tlb" (a list of
 * {"level", "type", "page_kb", "entries", "ways"}) and "tlb_src" (where it came from, or why
 * there is nothing), or nothing at all where the architecture has no such instruction. */
void tm_arch_tlb_json(tm_json *j);
uint64_t tm_ticks_khz(void);
/* n loop iterations of 50 (250) dependent one-cycle adds, for the core-frequency estimate; in
 * assembly where the architecture has it, so that the chain is the same at every -O level */
uint64_t tm_arch_chain50(uint64_t n);
uint64_t tm_arch_chain250(uint64_t n);

/* Kernel-entry loops (arch/<arch>/trap.c), for a port's tm_os_trap_run(): n times one way into
 * the kernel, each followed by the control loop's count-down and branch (tm_control_loop), so
 * that subtracting the control loop leaves the trap and its handler. 0, or -1 where the
 * architecture has no such loop (arch/generic).
 *   call   the system-call instruction (svc, ecall, syscall) with nr in the ABI's number register
 *   load   a load from addr that the handler makes fault and resumes after
 *   undef  an undefined instruction, resumed after
 *   store  a 32-bit store of value to reg (the write that raises an interrupt) and the barrier
 *          that makes the interrupt be taken before the loop goes on
 * The faulting load and the undefined instruction are each tm_arch_trap_insn_bytes long: what
 * a handler adds to the return address to skip one. */
extern const unsigned tm_arch_trap_insn_bytes;
int tm_arch_trap_call(uint64_t n, long nr);
int tm_arch_trap_load(uint64_t n, const void *addr);
int tm_arch_trap_undef(uint64_t n);
int tm_arch_trap_store(uint64_t n, volatile void *reg, uint32_t value);

/* main.c: the core's command line (the port's entry.c calls it) */
int tm_main(int argc, char **argv);
/* the hello record of a run of the n instances (their keys are its "order") */
void tm_emit_hello(const tm_options *opt, const tm_env *env, const tm_instance *insts, int n);

/* exec.c: tickmark-core exec [options] -- PROGRAM [ARGS...] (argv after "exec") */
int tm_exec_main(int argc, char **argv);

/* buildinfo.c (generated by the Makefile) */
extern const char tm_build_cc[];
extern const char tm_build_cflags[];
extern const char tm_build_target[];
extern const char tm_build_memfn[];

#endif
