/* tickmark-core: command line, the hello/bye records, the seeded random order of instances,
 * and the isolation of each instance in a child process. See docs/protocol.md. The program's
 * entry is tm_main(); the port's entry.c calls it (from main() on an OS with processes, from
 * a task started before the scheduler on an RTOS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "tickmark/osal.h"

static tm_instance instances[TM_MAX_INSTANCES];

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "tickmark-core: %s%s%s (try: tickmark-core help)\n", msg, arg ? ": " : "", arg ? arg : "");
    return 2;
}

static void print_help(void)
{
    puts("usage: tickmark-core list [GLOB...]\n"
         "       tickmark-core hello              the hello record alone (timer, cycles, counters)\n"
         "       tickmark-core run [GLOB...] [--samples N] [--sample-ms MS] [--seed N]\n"
         "                     [--iters N | --iters KEY=N]... [--param [BENCH:]NAME=V,V]... [--timeout SEC]\n"
         "                     [--cpu N] [--fcore-khz N] [--no-fork] [--host-clock] [--text] [-- GLOB...]\n"
         "       tickmark-core exec [--name NAME] [--samples N] [--warmup N] [--timeout SEC]\n"
         "                     [--seed N] [--capture] [--text] -- PROGRAM [ARGS...]\n"
         "       tickmark-core @FILE              the arguments from FILE, one per line\n"
         "Records are described in docs/protocol.md.");
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* NAME=VALUE; at_last splits at the last '=' (instance keys contain '=' themselves). */
static int split_override(const char *arg, tm_override *o, int at_last)
{
    const char *eq = at_last ? strrchr(arg, '=') : strchr(arg, '=');
    size_t len;
    if (!eq || eq == arg)
        return -1;
    len = (size_t)(eq - arg);
    if (len >= sizeof o->name || strlen(eq + 1) >= sizeof o->value || !eq[1])
        return -1;
    memcpy(o->name, arg, len);
    o->name[len] = '\0';
    strcpy(o->value, eq + 1);
    return 0;
}

/* A pattern names benchmarks by glob ("sys.*"), or, when it has a '[', instances by their key
 * ("mem.lat_rand[size=4096,thp=0]", globs allowed), so that a later round can rerun a few
 * points of a sweep. */
static int is_key_pattern(const char *glob) { return strchr(glob, '[') != NULL; }

static int bench_pattern_match(const char *glob, const char *name)
{
    char prefix[160];
    size_t len = strcspn(glob, "[");
    if (!is_key_pattern(glob))
        return tm_glob_match(glob, name);
    if (len >= sizeof prefix)
        return 0;
    memcpy(prefix, glob, len);
    prefix[len] = '\0';
    return tm_glob_match(prefix, name);
}

static int matches(const char *name, char **globs, int nglobs)
{
    int i;
    if (nglobs == 0)
        return 1;
    for (i = 0; i < nglobs; i++)
        if (bench_pattern_match(globs[i], name))
            return 1;
    return 0;
}

/* Does an instance of a selected benchmark stay selected? (key patterns pick single points) */
static int instance_selected(const tm_instance *inst, char **globs, int nglobs, int *used)
{
    int i, keep = nglobs == 0;
    for (i = 0; i < nglobs; i++) {
        int hit = is_key_pattern(globs[i]) ? tm_glob_match(globs[i], inst->key)
                                           : tm_glob_match(globs[i], inst->bench->name);
        if (hit) {
            used[i] = 1;
            keep = 1;
        }
    }
    return keep;
}

static void emit_bench(const tm_bench *b)
{
    tm_json j;
    char buf[128], sweep[256], text[64];
    unsigned missing = tm_missing_caps(b);
    int i;
    tm_json_begin(&j, stdout, "bench");
    tm_json_str(&j, "name", b->name);
    tm_json_str(&j, "summary", b->summary ? b->summary : "");
    tm_json_str(&j, "unit", b->unit ? b->unit : "op");
    tm_json_str(&j, "requires", tm_requires_text(b->requires, buf, sizeof buf));
    tm_json_open(&j, "params", '[');
    for (i = 0; i < TM_MAX_PARAMS && b->params[i].name; i++) {
        tm_json_open(&j, NULL, '{');
        tm_json_str(&j, "name", b->params[i].name);
        tm_json_str(&j, "sweep", tm_param_sweep(b, i, sweep, sizeof sweep));
        tm_json_str(&j, "help", b->params[i].help ? b->params[i].help : "");
        if (tm_param_unkeyed(b, i, text, sizeof text))
            tm_json_str(&j, "unkeyed", text);
        if (tm_param_range(b, i, text, sizeof text))
            tm_json_str(&j, "range", text);
        tm_json_close(&j, '}');
    }
    tm_json_close(&j, ']');
    tm_json_str(&j, "subs", b->subs ? b->subs : "");
    tm_json_str(&j, "stat", b->stat == TM_STAT_MIN ? "min" : b->stat == TM_STAT_MAX_RATE ? "max" : "median");
    tm_json_int(&j, "supported", missing ? 0 : 1);
    tm_json_str(&j, "reason", missing ? tm_requires_text(missing, buf, sizeof buf) : "");
    tm_json_end(&j);
}

/* A pattern that selects no benchmark: one "unmatched" record, so the harness never needs a
 * matcher of its own. */
static void emit_unmatched(const char *glob, int text)
{
    tm_json j;
    if (text) {
        printf("no benchmark matches '%s'\n", glob);
        return;
    }
    tm_json_begin(&j, stdout, "unmatched");
    tm_json_str(&j, "pattern", glob);
    tm_json_end(&j);
}

static int cmd_list(char **globs, int nglobs, int text)
{
    const tm_bench *const *all = tm_registry();
    int i, g;
    for (i = 0; all[i]; i++) {
        if (!matches(all[i]->name, globs, nglobs))
            continue;
        if (text)
            printf("%-28s %-10s %s\n", all[i]->name, all[i]->unit ? all[i]->unit : "op",
                   all[i]->summary ? all[i]->summary : "");
        else
            emit_bench(all[i]);
    }
    for (g = 0; g < nglobs; g++) {
        for (i = 0; all[i] && !bench_pattern_match(globs[g], all[i]->name); i++)
            ;
        if (!all[i])
            emit_unmatched(globs[g], text);
    }
    return 0;
}

typedef struct child_args {
    const tm_instance *inst;
    const tm_options *opt;
    const tm_env *env;
} child_args;

static void run_child(void *p)
{
    child_args *a = p;
    tm_run_one(a->inst, a->opt, a->env);
}

static int cmd_run(char **globs, int nglobs, tm_options *opt)
{
    const tm_bench *const *all = tm_registry();
    tm_env env;
    static int used[TM_MAX_GLOBS]; /* static: small target stacks */
    int n = 0, i, g;
    uint64_t start = tm_os_now_ns(), rng;
    char err[256];

    for (i = 0; all[i]; i++) {
        int got, k, kept = 0;
        if (!matches(all[i]->name, globs, nglobs))
            continue;
        got = tm_expand(all[i], opt, instances + n, TM_MAX_INSTANCES - n, err, sizeof err);
        if (got < 0)
            return usage_error(err, NULL);
        for (k = 0; k < got; k++)
            if (instance_selected(&instances[n + k], globs, nglobs, used))
                instances[n + kept++] = instances[n + k];
        n += kept;
    }
    for (g = 0; g < nglobs; g++) /* every pattern must name something */
        if (!used[g])
            return usage_error("no benchmark matches", globs[g]);
    rng = opt->seed;
    for (i = n - 1; i > 0; i--) { /* Fisher-Yates with the recorded seed */
        int k = (int)(splitmix64(&rng) % (uint64_t)(i + 1));
        tm_instance t = instances[i];
        instances[i] = instances[k];
        instances[k] = t;
    }
    if (opt->cpu < 0)
        opt->cpu = tm_os_cpu_current();
    tm_os_pin_cpu(opt->cpu);
    tm_os_scratch_clean(); /* fixes the scratch name to this process before any child runs */
    tm_env_measure(&env, opt->fcore_khz);
    if (opt->text)
        printf("tickmark-core %s on %s (%s), %s, core ~%llu MHz, cycles: %s\n", TM_VERSION, tm_build_target,
               tm_port_name(), tm_build_cc, (unsigned long long)(env.fcore_khz / 1000), env.cycles_method);
    else
        tm_emit_hello(opt, &env, instances, n);
    tm_ctr_close(); /* each instance opens its own, in its own process */

    for (i = 0; i < n; i++) {
        child_args args;
        char detail[128] = "";
        int rc;
        args.inst = &instances[i];
        args.opt = opt;
        args.env = &env;
        fflush(stdout);
        if (opt->no_fork) {
            run_child(&args);
            continue;
        }
        rc = tm_os_run_isolated(run_child, &args, opt->timeout_s, detail, sizeof detail);
        tm_os_scratch_clean();
        if (rc == TM_ISO_TIMEOUT)
            tm_emit_end(&instances[i], "timeout", detail, (uint64_t)opt->timeout_s * 1000000000u, opt);
        else if (rc == TM_ISO_CRASHED || rc == TM_ISO_EXITED)
            tm_emit_end(&instances[i], "crashed", detail, 0, opt);
        else if (rc == TM_ISO_ERROR) {
            tm_emit_end(&instances[i], "crashed", detail, 0, opt);
            if (strcmp(detail, "interrupted") == 0)
                return 130;
        }
        if (ferror(stdout)) /* the output went away (an unplugged console): nobody reads the rest */
            return 130;
    }
    if (!opt->text) {
        tm_json j;
        tm_json_begin(&j, stdout, "bye");
        tm_json_int(&j, "instances", n);
        tm_json_uint(&j, "wall_ns", tm_os_now_ns() - start);
        tm_json_end(&j);
    }
    return 0;
}

static int parse_positive(const char *arg, int64_t min, int64_t max, int64_t *out)
{
    return tm_parse_int(arg, out) == 0 && *out >= min && *out <= max ? 0 : -1;
}

/* Words of the port's argument line (tm_port_args) as an argv, for a start without arguments. */
static int port_argv(char ***argv)
{
    static char line[1024];
    static char *words[64];
    int n = 1;
    char *p;
    snprintf(line, sizeof line, "%s", tm_port_args());
    words[0] = "tickmark-core";
    for (p = strtok(line, " \t\r\n"); p && n < 63; p = strtok(NULL, " \t\r\n"))
        words[n++] = p;
    words[n] = NULL;
    *argv = words;
    return n;
}

/* "@FILE": the arguments are the lines of FILE (for targets whose command line is short, such
 * as semihosting, which reads the file from the host). Returns the new argc, or -1. */
static int args_from_file(const char *path, char *argv0, char ***argv_out)
{
    static char *args[TM_MAX_GLOBS + 2 * TM_MAX_ITERS + 2 * TM_MAX_OVERRIDES + 32];
    char *text = NULL, *p;
    size_t len = 0, cap = 0;
    int argc = 0, c;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while ((c = getc(f)) != EOF) {
        if (len + 2 > cap) {
            char *bigger = realloc(text, cap = cap ? 2 * cap : 4096);
            if (!bigger) {
                free(text);
                fclose(f);
                return -1;
            }
            text = bigger;
        }
        text[len++] = (char)c;
    }
    fclose(f);
    if (!text)
        return -1;
    text[len] = '\0';
    args[argc++] = argv0;
    for (p = strtok(text, "\r\n"); p; p = strtok(NULL, "\r\n"))
        if (*p && argc < (int)(sizeof args / sizeof args[0]) - 1)
            args[argc++] = p;
    args[argc] = NULL;
    *argv_out = args; /* the text stays allocated: the arguments point into it */
    return argc;
}

int tm_main(int argc, char **argv)
{
    static tm_options opt;
    static char *globs[TM_MAX_GLOBS];
    char cpu_text[16];
    int nglobs = 0, i, list, options_end = 0;
    int64_t v;

    if (argc < 2)
        argc = port_argv(&argv);

    if (argc == 2 && argv[1][0] == '@') {
        argc = args_from_file(argv[1] + 1, argv[0], &argv);
        if (argc < 0)
            return usage_error("cannot read the arguments file", argv[1] + 1);
    }

    if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0) {
        print_help();
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "hello") == 0) { /* what this target offers, without running anything */
        tm_env env;
        opt.seed = 0;
        opt.cpu = tm_os_cpu_current();
        tm_env_measure(&env, 0);
        tm_emit_hello(&opt, &env, instances, 0);
        return 0;
    }
    if (strcmp(argv[1], "exec") == 0) /* any program as a benchmark (src/exec.c) */
        return tm_exec_main(argc - 2, argv + 2);
    if (strcmp(argv[1], "list") != 0 && strcmp(argv[1], "run") != 0)
        return usage_error("unknown command", argv[1]);
    list = strcmp(argv[1], "list") == 0;
    opt.samples = 5;
    opt.sample_ms = 10;
    opt.timeout_s = 60;
    opt.cpu = -1;
    opt.seed = tm_os_now_ns() ^ ((uint64_t)tm_os_cpu_count() << 32);
    setvbuf(stdout, NULL, _IOLBF, 0);

    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!options_end && strcmp(a, "--") == 0) { /* the rest are patterns, whatever they look like */
            options_end = 1;
            continue;
        }
        if (options_end || a[0] != '-') {
            if (nglobs == TM_MAX_GLOBS)
                return usage_error("too many patterns", a);
            globs[nglobs++] = argv[i];
            continue;
        }
        if (strcmp(a, "--text") == 0) {
            opt.text = 1;
            continue;
        }
        if (strcmp(a, "--no-fork") == 0) {
            opt.no_fork = 1;
            continue;
        }
        if (strcmp(a, "--host-clock") == 0) {
            opt.host_clock = 1;
            continue;
        }
        if (!val)
            return usage_error("option needs a value", a);
        i++;
        if (strcmp(a, "--samples") == 0) {
            if (parse_positive(val, 1, TM_MAX_SAMPLES, &v))
                return usage_error("--samples wants 1..1000", val);
            opt.samples = (int)v;
        } else if (strcmp(a, "--sample-ms") == 0) {
            if (parse_positive(val, 1, 10000, &v))
                return usage_error("--sample-ms wants 1..10000", val);
            opt.sample_ms = (int)v;
        } else if (strcmp(a, "--timeout") == 0) {
            if (parse_positive(val, 1, 86400, &v))
                return usage_error("--timeout wants seconds, 1..86400", val);
            opt.timeout_s = (int)v;
        } else if (strcmp(a, "--cpu") == 0) {
            if (parse_positive(val, 0, 4095, &v))
                return usage_error("--cpu wants a CPU number", val);
            opt.cpu = (int)v;
        } else if (strcmp(a, "--fcore-khz") == 0) {
            if (parse_positive(val, 1, INT64_MAX, &v))
                return usage_error("--fcore-khz wants the core clock in kHz", val);
            opt.fcore_khz = (uint64_t)v;
        } else if (strcmp(a, "--seed") == 0) {
            if (parse_positive(val, 0, INT64_MAX, &v))
                return usage_error("--seed wants a non-negative integer", val);
            opt.seed = (uint64_t)v;
        } else if (strcmp(a, "--iters") == 0) {
            if (strchr(val, '=')) {
                if (opt.niters == TM_MAX_ITERS)
                    return usage_error("too many --iters", val);
                if (split_override(val, &opt.iters[opt.niters], 1) ||
                    parse_positive(opt.iters[opt.niters].value, 1, INT64_MAX, &v))
                    return usage_error("--iters wants N or KEY=N", val);
                opt.niters++;
            } else if (parse_positive(val, 1, INT64_MAX, &v)) {
                return usage_error("--iters wants N or KEY=N", val);
            } else {
                opt.iters_all = (uint64_t)v;
            }
        } else if (strcmp(a, "--param") == 0) {
            if (opt.nparams == TM_MAX_OVERRIDES || split_override(val, &opt.params[opt.nparams], 0))
                return usage_error("--param wants NAME=V,V,...", val);
            opt.nparams++;
        } else {
            return usage_error("unknown option", a);
        }
    }
    if (opt.host_clock && opt.text)
        return usage_error("--host-clock writes marks for the host to time, not text", NULL);
    if (opt.cpu >= 0 && tm_os_pin_cpu(opt.cpu) != 0) { /* checked for list too: the harness asks it first */
        snprintf(cpu_text, sizeof cpu_text, "%d", opt.cpu);
        return usage_error("--cpu names a CPU that this target cannot run on (or it cannot pin)", cpu_text);
    }
    return list ? cmd_list(globs, nglobs, opt.text) : cmd_run(globs, nglobs, &opt);
}
