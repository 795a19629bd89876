/* tickmark-core exec: any program as a benchmark. One instance, exec.NAME, whose operation is
 * one run of the program: --warmup runs first (not recorded), then --samples samples of one run
 * each. A run is timed from the moment the program is let go to exec until it is reaped (the
 * core's own fork is not in it), with what the kernel counted for the program and its children:
 * CPU time (task-clock), context switches and page faults, and the hardware events where the
 * port can open them for another process. The program's stdin is /dev/null, its stdout is
 * discarded, or with --capture kept and sent whole (up to TM_EXEC_OUT_MAX bytes) in the sample
 * record as "out", and the last line of its stderr becomes the reason of a failure: a run that
 * exits with a status other than 0 ends the instance as failed, one killed by a signal as
 * crashed, one that outlasts --timeout as timeout. The records are those of a run of benchmarks
 * (docs/protocol.md), so the harness stores and compares them the same way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "tickmark/osal.h"

#define TM_EXEC_OUT_MAX (1u << 20)

typedef struct exec_opts {
    tm_options core; /* samples, timeout, seed, text: as for run */
    int warmup;
    int capture;
    char *const *argv;
} exec_opts;

static int exec_usage(const char *msg, const char *arg)
{
    fprintf(stderr, "tickmark-core: exec: %s%s%s (try: tickmark-core help)\n", msg, arg ? ": " : "", arg ? arg : "");
    return 2;
}

/* exec.NAME: NAME given, else the program's file name; characters other than letters, digits
 * and "._-" become '_' (a key is a plain name). */
static void exec_key(char *key, size_t len, const char *name, const char *program)
{
    const char *base = strrchr(program, '/');
    size_t i, n;
    if (!name)
        name = base ? base + 1 : program;
    n = (size_t)snprintf(key, len, "exec.%s", *name ? name : "program");
    for (i = 5; i < n && i < len; i++) {
        char c = key[i];
        int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
        if (!plain)
            key[i] = '_';
    }
}

/* The file the program's stdout went to, sent as the sample's "out" (NUL bytes as '?'). */
static void emit_output(tm_json *j, const char *path)
{
    static char text[TM_EXEC_OUT_MAX + 1];
    size_t n = 0, i;
    int cut = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        n = fread(text, 1, TM_EXEC_OUT_MAX, f);
        cut = getc(f) != EOF;
        fclose(f);
    }
    for (i = 0; i < n; i++)
        if (!text[i])
            text[i] = '?';
    text[n] = '\0';
    tm_json_str(j, "out", text);
    if (cut)
        tm_json_int(j, "out_cut", 1);
}

static void emit_exec_sample(const tm_instance *inst, int idx, const tm_exec_run *r, const char *out_path)
{
    tm_json j;
    int i;
    tm_json_begin(&j, stdout, "sample");
    tm_json_str(&j, "key", inst->key);
    tm_json_int(&j, "i", idx);
    tm_json_uint(&j, "iters", 1);
    tm_json_uint(&j, "ops", 1);
    tm_json_uint(&j, "ns", r->wall_ns);
    if (r->nctr && tm_ctr_cycles_index() >= 0)
        tm_json_uint(&j, "cyc", r->ctr[tm_ctr_cycles_index()]);
    tm_json_uint(&j, "ctr_ops", 1);
    tm_json_open(&j, "ctr", '{');
    if (r->nctr) {
        for (i = 0; i < r->nctr; i++)
            tm_json_uint(&j, tm_ctr_name(i), r->ctr[i]);
    } else if (r->have_usage) {
        tm_json_uint(&j, "task_clock", r->cpu_ns);
        tm_json_uint(&j, "context_switches", r->switches);
        tm_json_uint(&j, "page_faults", r->faults);
    }
    tm_json_close(&j, '}');
    if (r->nctr)
        tm_json_int(&j, "multiplexed", r->multiplexed);
    else
        tm_json_str(&j, "ctr_src", "rusage");
    if (out_path)
        emit_output(&j, out_path);
    tm_json_end(&j);
}

static void emit_exec_meta(const tm_instance *inst)
{
    tm_json j;
    tm_json_begin(&j, stdout, "meta");
    tm_json_str(&j, "bench", inst->key);
    tm_json_str(&j, "key", inst->key);
    tm_json_open(&j, "params", '{');
    tm_json_close(&j, '}');
    tm_json_str(&j, "unit", "run");
    tm_json_uint(&j, "iters", 1);
    tm_json_uint(&j, "ops_per_iter", 1);
    tm_json_uint(&j, "bytes_per_op", 0);
    tm_json_str(&j, "method", "exec");
    tm_json_str(&j, "stat", "median");
    tm_json_int(&j, "blocking", 1); /* a program may sleep or wait: off-CPU time is part of it */
    tm_json_uint(&j, "calib_ns", 0);
    tm_json_uint(&j, "fcore_khz", 0);
    tm_json_uint(&j, "loop_overhead_ps", 0);
    tm_json_end(&j);
}

/* The last non-empty line of the program's stderr (a failure's reason). */
static void last_line(const char *path, char *buf, size_t len)
{
    char line[512];
    FILE *f = fopen(path, "rb");
    buf[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        size_t n = strcspn(line, "\r\n");
        line[n] = '\0';
        if (n) {
            if (n >= len)
                n = len - 1;
            memcpy(buf, line, n);
            buf[n] = '\0';
        }
    }
    fclose(f);
}

/* One run -> 0, or the status that ends the instance (its reason in reason). */
static const char *one_run(const exec_opts *o, const char *out_path, const char *err_path, tm_exec_run *r,
                           char *reason, size_t len)
{
    char said[200];
    memset(r, 0, sizeof *r);
    if (tm_os_exec_run(o->argv, o->core.timeout_s, out_path, err_path, r) != 0) {
        snprintf(reason, len, "cannot run %s: %s", o->argv[0], r->err);
        return "failed";
    }
    if (r->interrupted) {
        snprintf(reason, len, "interrupted");
        return "crashed";
    }
    if (r->timed_out) {
        snprintf(reason, len, "no result after %d s", o->core.timeout_s);
        return "timeout";
    }
    last_line(err_path, said, sizeof said);
    if (!r->exited) {
        snprintf(reason, len, "killed by %s%s%s", r->err, said[0] ? ": " : "", said);
        return "crashed";
    }
    if (r->code != 0) {
        snprintf(reason, len, "exited with status %d%s%s", r->code, said[0] ? ": " : "", said);
        return "failed";
    }
    return NULL;
}

static void print_text_run(const tm_instance *inst, int idx, const tm_exec_run *r)
{
    printf("%-28s run %3d  %8llu.%03llu ms wall  %8llu.%03llu ms cpu\n", inst->key, idx,
           (unsigned long long)(r->wall_ns / 1000000), (unsigned long long)(r->wall_ns / 1000 % 1000),
           (unsigned long long)(r->cpu_ns / 1000000), (unsigned long long)(r->cpu_ns / 1000 % 1000));
    fflush(stdout);
}

static int run_program(const exec_opts *o, const tm_instance *inst)
{
    char out_path[600], err_path[600], reason[320] = "";
    const char *status = NULL;
    uint64_t start = tm_os_now_ns();
    tm_exec_run r;
    int i, s = 0;

    snprintf(out_path, sizeof out_path, "%s/out", tm_os_scratch_dir());
    snprintf(err_path, sizeof err_path, "%s/err", tm_os_scratch_dir());
    for (i = 0; i < o->warmup && !status; i++)
        status = one_run(o, NULL, err_path, &r, reason, sizeof reason);
    if (!status && !o->core.text)
        emit_exec_meta(inst);
    for (s = 0; s < o->core.samples && !status; s++) {
        status = one_run(o, o->capture ? out_path : NULL, err_path, &r, reason, sizeof reason);
        if (status)
            break;
        if (o->core.text)
            print_text_run(inst, s, &r);
        else
            emit_exec_sample(inst, s, &r, o->capture ? out_path : NULL);
        if (ferror(stdout))
            break;
    }
    tm_os_scratch_clean();
    tm_emit_end(inst, status ? status : "ok", reason, tm_os_now_ns() - start, &o->core);
    return strcmp(reason, "interrupted") == 0 || ferror(stdout) ? 130 : 0;
}

int tm_exec_main(int argc, char **argv)
{
    static exec_opts o;
    static tm_instance inst;
    const char *name = NULL;
    tm_env env;
    int i, rc;
    int64_t v;
    uint64_t start = tm_os_now_ns();

    tm_os_harness_bound(); /* a harness killed with SIGKILL stops the program, whatever its --timeout */
    o.core.samples = 10;
    o.core.timeout_s = 600;
    o.core.cpu = -1;
    o.core.seed = tm_os_now_ns();
    o.warmup = 1;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--capture") == 0) {
            o.capture = 1;
            continue;
        }
        if (strcmp(a, "--text") == 0) {
            o.core.text = 1;
            continue;
        }
        if (!val)
            return exec_usage(a[0] == '-' ? "option needs a value" : "the program comes after '--'", a);
        i++;
        if (strcmp(a, "--name") == 0)
            name = val;
        else if (strcmp(a, "--samples") == 0 && tm_parse_int(val, &v) == 0 && v >= 1 && v <= TM_MAX_SAMPLES)
            o.core.samples = (int)v;
        else if (strcmp(a, "--warmup") == 0 && tm_parse_int(val, &v) == 0 && v >= 0 && v <= 1000)
            o.warmup = (int)v;
        else if (strcmp(a, "--timeout") == 0 && tm_parse_int(val, &v) == 0 && v >= 1 && v <= 86400)
            o.core.timeout_s = (int)v;
        else if (strcmp(a, "--seed") == 0 && tm_parse_int(val, &v) == 0 && v >= 0)
            o.core.seed = (uint64_t)v;
        else
            return exec_usage("bad option or value (--samples 1..1000, --warmup 0..1000, --timeout 1..86400)", a);
    }
    if (i >= argc)
        return exec_usage("no program given (tickmark-core exec [options] -- PROGRAM [ARGS...])", NULL);
    if (!(tm_port_caps() & TM_REQ_EXEC))
        return exec_usage("this port cannot start programs", tm_port_name());
    o.argv = argv + i;
    exec_key(inst.key, sizeof inst.key, name, o.argv[0]);
    setvbuf(stdout, NULL, _IOLBF, 0);

    memset(&env, 0, sizeof env); /* no overheads subtracted, no clock calibrated: a run is milliseconds */
    tm_os_scratch_clean();
    env.cycles_method = tm_ctr_open() > 0 && tm_ctr_cycles_index() >= 0 ? tm_ctr_source() : "none";
    o.core.cpu = tm_os_cpu_current();
    if (o.core.text)
        printf("tickmark-core %s on %s (%s): exec %s\n", TM_VERSION, tm_build_target, tm_port_name(), o.argv[0]);
    else
        tm_emit_hello(&o.core, &env, &inst, 1); /* names the counters: those the program gets */
    tm_ctr_close();
    rc = run_program(&o, &inst);
    if (!o.core.text && rc == 0) {
        tm_json j;
        tm_json_begin(&j, stdout, "bye");
        tm_json_int(&j, "instances", 1);
        tm_json_uint(&j, "wall_ns", tm_os_now_ns() - start);
        tm_json_end(&j);
    }
    return rc;
}
