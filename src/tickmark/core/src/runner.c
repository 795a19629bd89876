/* The runner: for one benchmark instance, set up, calibrate N so a sample lasts about
 * sample_ms, freeze N, warm up, take samples (retaking a preempted one once), emit records,
 * tear down. Each instance runs isolated in a child process where the port allows it. */
#include <stdio.h>
#include <string.h>

#include "runner.h"
#include "tickmark/osal.h"

typedef struct tm_measure {
    uint64_t ns;                 /* net time of ops operations */
    int64_t cyc;                 /* net cycles (perf), or -1 */
    uint64_t ctr[TM_CTR_MAX];    /* counter deltas over the whole measurement */
    uint64_t ctr_ops;            /* operations done while the counters counted */
    int multiplexed;             /* an event did not count all the time during a batch */
} tm_measure;

static uint64_t sub_sat(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* Time one batch of iters iterations of fn; counters are read around it when asked. */
static uint64_t time_batch(tm_ctx *ctx, void (*fn)(tm_ctx *, uint64_t), uint64_t iters,
                           const tm_env *env, uint64_t *ctr_delta)
{
    uint64_t c0[TM_CTR_MAX], c1[TM_CTR_MAX], t0, t1;
    int i, nctr = ctr_delta ? tm_ctr_count() : 0;
    if (nctr)
        tm_ctr_read(c0);
    t0 = tm_os_now_ns();
    fn(ctx, iters);
    t1 = tm_os_now_ns();
    if (nctr) {
        tm_ctr_read(c1);
        for (i = 0; i < nctr; i++)
            ctr_delta[i] = c1[i] - c0[i];
    }
    return sub_sat(t1 - t0, env->timer_overhead_ps / 1000);
}

static int differential(const tm_bench *b) { return b->run_x2 != NULL; }

static void measure(tm_ctx *ctx, uint64_t iters, const tm_env *env, int want_ctr, tm_measure *m)
{
    const tm_bench *b = ctx->bench;
    uint64_t d1[TM_CTR_MAX], d2[TM_CTR_MAX];
    int i, nctr = want_ctr ? tm_ctr_count() : 0, cyc_idx = tm_ctr_cycles_index();
    memset(m, 0, sizeof *m);
    m->cyc = -1;
    if (differential(b)) {
        uint64_t t1 = time_batch(ctx, b->run, iters, env, nctr ? d1 : NULL), t2;
        m->multiplexed = nctr ? tm_ctr_multiplexed() : 0;
        t2 = time_batch(ctx, b->run_x2, iters, env, nctr ? d2 : NULL);
        m->multiplexed |= nctr ? tm_ctr_multiplexed() : 0;
        m->ns = sub_sat(t2, t1);
        m->ctr_ops = 3 * iters * ctx->ops_per_iter;
        for (i = 0; i < nctr; i++)
            m->ctr[i] = d1[i] + d2[i];
        if (nctr && cyc_idx >= 0)
            m->cyc = (int64_t)d2[cyc_idx] - (int64_t)d1[cyc_idx];
    } else {
        uint64_t t = time_batch(ctx, b->run, iters, env, nctr ? d1 : NULL);
        m->multiplexed = nctr ? tm_ctr_multiplexed() : 0;
        m->ns = (b->flags & TM_F_CONTROL) ? t : sub_sat(t, iters * env->loop_overhead_ps / 1000);
        m->ctr_ops = iters * ctx->ops_per_iter;
        for (i = 0; i < nctr; i++)
            m->ctr[i] = d1[i];
        if (nctr && cyc_idx >= 0) { /* less the control loop, as the time */
            uint64_t loop = (b->flags & TM_F_CONTROL) ? 0 : iters * env->loop_overhead_mcyc / 1000;
            m->cyc = (int64_t)sub_sat(m->ctr[cyc_idx], loop);
        }
    }
    if (m->cyc < 0 && env->fcore_khz)
        m->cyc = (int64_t)(m->ns * env->fcore_khz / 1000000);
}

/* Next iteration count towards target_ns: x10 while far below, else proportional with 10%
 * headroom (google/benchmark's growth with lmbench's correction). */
uint64_t tm_calibrate_next(uint64_t n, uint64_t t_ns, uint64_t target_ns)
{
    double next;
    if (t_ns < target_ns / 10)
        return n * 10;
    next = (double)n * 1.1 * (double)target_ns / (double)t_ns;
    if (next < 1)
        return 1;
    return (uint64_t)next + (next > (double)n ? 1 : 0);
}

/* Calibrate the iterations of a sample: x10 while a batch is far shorter than a sample, then
 * in proportion to the target (tm_calibrate_next), until a batch lasts -10..+30 % of the target.
 * A noisy machine never makes it bounce for long: after TM_CALIB_LONG batches of at least a
 * tenth of a sample, the count from the last one is taken. A single iteration that looks longer
 * than a sample because the thread was preempted is taken again, up to TM_CALIB_RETAKES times
 * (not for blocking benchmarks, which switch by design), so that preemption never freezes a
 * count of one. *warmed: the last batch ran with the count returned, so it was a warm-up of
 * full length. */
#define TM_CALIB_LONG 3
/* A sample is taken once more when a context switch or a migration hit it; a differential
 * sample whose double pass took no longer than its single one (the single one preempted) is no
 * measurement at all, and is taken again up to this many times in all. */
#define TM_SAMPLE_TAKES 5
#define TM_CALIB_RETAKES 2

static uint64_t calibrate(tm_ctx *ctx, const tm_env *env, uint64_t target_ns, uint64_t *spent_ns, int *warmed)
{
    uint64_t n = 1, ran = 0, start = tm_os_now_ns();
    int attempt, long_batches = 0, retakes = (ctx->bench->flags & TM_F_BLOCKING) ? 0 : TM_CALIB_RETAKES;
    tm_measure m;
    for (attempt = 0; attempt < 30; attempt++) {
        long iv0 = tm_os_nivcsw(), iv1;
        measure(ctx, n, env, 0, &m);
        if (tm_failed(ctx))
            break;
        ran = n;
        iv1 = tm_os_nivcsw();
        if (m.ns > target_ns && n == 1 && iv0 >= 0 && iv1 > iv0 && retakes > 0) {
            retakes--;
            continue;
        }
        if (m.ns * 10 >= target_ns * 9 && m.ns * 10 <= target_ns * 13)
            break;
        if (m.ns > target_ns && n == 1)
            break; /* one iteration is already longer than a sample */
        n = tm_calibrate_next(n, m.ns, target_ns);
        if (m.ns * 10 >= target_ns && ++long_batches >= TM_CALIB_LONG)
            break;
        if (tm_os_now_ns() - start > 20 * target_ns + 2000000000ull)
            break;
    }
    if ((ctx->bench->flags & TM_F_SLOW) && n * ctx->ops_per_iter < 10)
        n = (10 + ctx->ops_per_iter - 1) / ctx->ops_per_iter;
    *warmed = !tm_failed(ctx) && ran == n;
    *spent_ns = tm_os_now_ns() - start;
    return n;
}

static const char *stat_name(int stat)
{
    return stat == TM_STAT_MIN ? "min" : stat == TM_STAT_MAX_RATE ? "max" : "median";
}

static void emit_params(tm_json *j, const tm_instance *inst)
{
    int i;
    tm_json_open(j, "params", '{');
    for (i = 0; i < inst->nparams; i++)
        tm_json_int(j, inst->bench->params[i].name, inst->values[i]);
    tm_json_close(j, '}');
}

void tm_emit_end(const tm_instance *inst, const char *status, const char *reason, uint64_t wall_ns,
                 const tm_options *opt)
{
    tm_json j;
    if (opt->text) {
        if (strcmp(status, "ok") != 0)
            printf("%-40s %s%s%s\n", inst->key, status, reason[0] ? ": " : "", reason);
        fflush(stdout);
        return;
    }
    tm_json_begin(&j, stdout, "end");
    tm_json_str(&j, "key", inst->key);
    tm_json_str(&j, "status", status);
    tm_json_str(&j, "reason", reason);
    tm_json_uint(&j, "wall_ns", wall_ns);
    if (strcmp(status, "ok") == 0 && inst->bench && inst->bench->verifies) /* exec: no descriptor */
        tm_json_str(&j, "verified", inst->bench->verifies);
    tm_json_end(&j);
}

static void emit_meta(tm_ctx *ctx, uint64_t iters, uint64_t calib_ns, const tm_env *env, int host_clock)
{
    const tm_bench *b = ctx->bench;
    tm_json j;
    tm_json_begin(&j, stdout, "meta");
    tm_json_str(&j, "bench", b->name);
    tm_json_str(&j, "key", ctx->rt->inst->key);
    emit_params(&j, ctx->rt->inst);
    tm_json_str(&j, "unit", b->unit ? b->unit : "op");
    tm_json_uint(&j, "iters", iters);
    tm_json_uint(&j, "ops_per_iter", ctx->ops_per_iter);
    tm_json_uint(&j, "bytes_per_op", ctx->bytes_per_op);
    tm_json_str(&j, "method", host_clock ? "host-clock" : differential(b) ? "differential" : "direct");
    tm_json_str(&j, "stat", stat_name(b->stat));
    tm_json_int(&j, "blocking", (b->flags & TM_F_BLOCKING) ? 1 : 0);
    tm_json_uint(&j, "calib_ns", calib_ns);
    tm_json_uint(&j, "fcore_khz", env->fcore_khz);
    tm_json_uint(&j, "loop_overhead_ps",
                 host_clock || differential(b) || (b->flags & TM_F_CONTROL) ? 0 : env->loop_overhead_ps);
    if (ctx->rt->cold)
        tm_json_str(&j, ctx->rt->cold > 0 ? "cold_flush" : "cold_skip", ctx->rt->cold_how);
    if (ctx->rt->ninfo) {
        int i;
        tm_json_open(&j, "info", '{');
        for (i = 0; i < ctx->rt->ninfo; i++)
            tm_json_int(&j, ctx->rt->info_names[i], ctx->rt->info_vals[i]);
        tm_json_close(&j, '}');
    }
    tm_json_end(&j);
}

typedef struct tm_sample_side {
    long nivcsw, minflt;
    int cpu0, cpu1, retaken;
    int have_usage;    /* usage below is valid (used when no perf counters are open) */
    tm_os_usage usage; /* deltas over the sample */
} tm_sample_side;

static void emit_sample(tm_ctx *ctx, int idx, uint64_t iters, const tm_measure *m, const tm_sample_side *side)
{
    struct tm_runtime *rt = ctx->rt;
    tm_json j;
    int i, nctr = tm_ctr_count();
    tm_json_begin(&j, stdout, "sample");
    tm_json_str(&j, "key", rt->inst->key);
    tm_json_int(&j, "i", idx);
    tm_json_uint(&j, "iters", iters);
    tm_json_uint(&j, "ops", iters * ctx->ops_per_iter);
    tm_json_uint(&j, "ns", m->ns);
    if (m->cyc >= 0)
        tm_json_int(&j, "cyc", m->cyc);
    if (side->nivcsw >= 0)
        tm_json_int(&j, "nivcsw", side->nivcsw);
    if (side->minflt >= 0)
        tm_json_int(&j, "minflt", side->minflt);
    tm_json_int(&j, "cpu0", side->cpu0);
    tm_json_int(&j, "cpu1", side->cpu1);
    tm_json_int(&j, "retaken", side->retaken);
    if (idx < rt->ncold)
        tm_json_uint(&j, "cold", rt->cold_ns[idx]);
    if (rt->nsubs) {
        tm_json_open(&j, "sub", '{');
        for (i = 0; i < rt->nsubs; i++)
            tm_json_uint(&j, rt->sub_names[i], rt->sub_ns[i]);
        tm_json_close(&j, '}');
    }
    if (nctr) {
        tm_json_uint(&j, "ctr_ops", m->ctr_ops);
        tm_json_open(&j, "ctr", '{');
        for (i = 0; i < nctr; i++)
            tm_json_uint(&j, tm_ctr_name(i), m->ctr[i]);
        tm_json_close(&j, '}');
        tm_json_int(&j, "multiplexed", m->multiplexed);
    } else if (side->have_usage) { /* software counters from getrusage, for the whole process */
        tm_json_uint(&j, "ctr_ops", m->ctr_ops);
        tm_json_str(&j, "ctr_src", "rusage");
        tm_json_open(&j, "ctr", '{');
        tm_json_uint(&j, "task_clock", side->usage.cpu_ns);
        tm_json_uint(&j, "context_switches", side->usage.switches);
        tm_json_uint(&j, "page_faults", side->usage.faults);
        tm_json_close(&j, '}');
    }
    tm_json_end(&j);
}

/* --host-clock: the host times the samples from the arrival of these marks (a board whose own
 * clock cannot be trusted or read). After a start mark, each sample is two chunks of the
 * benchmark, of iters and of 2 x iters iterations, each followed by a mark with its count and
 * the board's clock (for comparison only); a sample is the second chunk's time less the first's,
 * iters iterations, so that what a mark costs to print cancels. */
static void emit_mark(const tm_ctx *ctx, int idx, uint64_t iters)
{
    tm_json j;
    uint64_t now = tm_os_now_ns();
    tm_json_begin(&j, stdout, "mark");
    tm_json_str(&j, "key", ctx->rt->inst->key);
    tm_json_int(&j, "i", idx);
    tm_json_uint(&j, "iters", iters);
    tm_json_uint(&j, "board_ns", now);
    tm_json_end(&j);
}

static void host_clock_marks(tm_ctx *ctx, uint64_t iters, int samples)
{
    int s, k = 0;
    emit_mark(ctx, k++, 0);
    for (s = 0; s < samples && !tm_failed(ctx); s++) {
        ctx->bench->run(ctx, iters);
        emit_mark(ctx, k++, iters);
        ctx->bench->run(ctx, 2 * iters);
        emit_mark(ctx, k++, 2 * iters);
    }
}

/* A clock that stands still cannot calibrate: with --host-clock such a board needs --iters. */
static int clock_moves(void)
{
    uint64_t t0 = tm_os_now_ns();
    tm_control_loop(100000);
    return tm_os_now_ns() != t0;
}

static void emit_hist(const struct tm_runtime *rt)
{
    tm_json j;
    int i;
    if (!rt->hist_count)
        return;
    tm_json_begin(&j, stdout, "hist");
    tm_json_str(&j, "key", rt->inst->key);
    tm_json_str(&j, "unit", "ns");
    tm_json_uint(&j, "count", rt->hist_count);
    tm_json_uint(&j, "min", rt->hist_min);
    tm_json_uint(&j, "max", rt->hist_max);
    tm_json_uint(&j, "sum", rt->hist_sum);
    tm_json_open(&j, "buckets", '[');
    for (i = 0; i < TM_HIST_BUCKETS; i++) {
        if (!rt->hist[i])
            continue;
        tm_json_open(&j, NULL, '[');
        tm_json_raw_int(&j, (int64_t)tm_hist_lower(i));
        tm_json_raw_int(&j, (int64_t)rt->hist[i]);
        tm_json_close(&j, ']');
    }
    tm_json_close(&j, ']');
    tm_json_end(&j);
}

/* Cold calls (the descriptor's .cold), before calibration: n times, the port flushes the caches,
 * the clock is read once (so that its own misses are not the call's), and one operation is timed
 * alone. A port that cannot flush, or --host-clock (the board's clock times nothing), leaves the
 * sub-metric out with the reason in the meta record. */
static void cold_calls(tm_ctx *ctx, int n, const tm_env *env, int host_clock)
{
    struct tm_runtime *rt = ctx->rt;
    if (host_clock) {
        rt->cold = -1;
        snprintf(rt->cold_how, sizeof rt->cold_how, "--host-clock: the board's clock times no single call");
        return;
    }
    rt->cold = 1;
    for (rt->ncold = 0; rt->ncold < n && rt->ncold < TM_MAX_COLD && !tm_failed(ctx); rt->ncold++) {
        uint64_t t0, t1;
        if (tm_os_flush_caches(rt->cold_how, sizeof rt->cold_how) != 0) {
            rt->cold = -1;
            rt->ncold = 0;
            return;
        }
        tm_os_now_ns();
        t0 = tm_os_now_ns();
        ctx->bench->cold(ctx);
        t1 = tm_os_now_ns();
        rt->cold_ns[rt->ncold] = sub_sat(t1 - t0, env->timer_overhead_ps / 1000);
    }
}

static void parse_subs(struct tm_runtime *rt, const char *subs)
{
    rt->nsubs = 0;
    while (subs && *subs && rt->nsubs < TM_MAX_SUBS) {
        size_t len = strcspn(subs, ",");
        if (len >= sizeof rt->sub_names[0])
            len = sizeof rt->sub_names[0] - 1;
        memcpy(rt->sub_names[rt->nsubs], subs, len);
        rt->sub_names[rt->nsubs++][len] = '\0';
        subs += strcspn(subs, ",");
        if (*subs == ',')
            subs++;
    }
}

static uint64_t fixed_iters(const tm_instance *inst, const tm_options *opt)
{
    int i;
    int64_t v;
    for (i = 0; i < opt->niters; i++)
        if (strcmp(opt->iters[i].name, inst->key) == 0 && tm_parse_int(opt->iters[i].value, &v) == 0 && v > 0)
            return (uint64_t)v;
    return opt->iters_all;
}

static void sort_u64(uint64_t *v, int n)
{
    int i, k;
    for (i = 1; i < n; i++) /* insertion sort: a handful of samples */
        for (k = i; k > 0 && v[k - 1] > v[k]; k--) {
            uint64_t t = v[k];
            v[k] = v[k - 1];
            v[k - 1] = t;
        }
}

/* Text mode: the median of the cold calls (each after a cache flush), or why there are none. */
static void print_text_cold(struct tm_runtime *rt, const char *unit)
{
    if (rt->cold < 0)
        printf("%-40s skip: %s\n", "  cold", rt->cold_how);
    if (rt->cold <= 0 || !rt->ncold)
        return;
    sort_u64(rt->cold_ns, rt->ncold);
    printf("%-40s %10llu ns/%s  (one call after each of %d cache flushes, median; %s)\n", "  cold",
           (unsigned long long)rt->cold_ns[rt->ncold / 2], unit, rt->ncold, rt->cold_how);
}

/* Text mode: print the median time per operation of the samples, in integer arithmetic. */
static void print_text_summary(const tm_ctx *ctx, uint64_t *ps_per_op, int n, const tm_env *env)
{
    uint64_t med, rate_x10;
    sort_u64(ps_per_op, n);
    med = ps_per_op[n / 2];
    rate_x10 = med ? UINT64_C(10000000000000) / med : 0;
    printf("%-40s %10llu.%03llu ns/%s", ctx->rt->inst->key, (unsigned long long)(med / 1000),
           (unsigned long long)(med % 1000), ctx->bench->unit ? ctx->bench->unit : "op");
    if (env->fcore_khz)
        printf("  %8llu cycles", (unsigned long long)(med * env->fcore_khz / 1000000000ull));
    printf("  %10llu.%llu %s/s  (%d samples)\n", (unsigned long long)(rate_x10 / 10),
           (unsigned long long)(rate_x10 % 10), ctx->bench->unit ? ctx->bench->unit : "op", n);
    print_text_cold(ctx->rt, ctx->bench->unit ? ctx->bench->unit : "op");
    fflush(stdout);
}

/* FNV-1a over the key, then a splitmix64 finaliser over the run's seed and that hash. */
static uint64_t instance_seed(uint64_t run_seed, const char *key)
{
    uint64_t h = 1469598103934665603ull, z;
    for (; *key; key++)
        h = (h ^ (unsigned char)*key) * 1099511628211ull;
    z = run_seed + h + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int tm_run_one(const tm_instance *inst, const tm_options *opt, const tm_env *env)
{
    static struct tm_runtime rt;
    static uint64_t ps_per_op[TM_MAX_SAMPLES];
    const tm_bench *b = inst->bench;
    tm_ctx ctx;
    uint64_t start = tm_os_now_ns(), target = (uint64_t)opt->sample_ms * 1000000, iters, calib_ns = 0;
    unsigned missing = tm_missing_caps(b);
    char reqbuf[128];
    int s, nsamples = 0, setup_rc = TM_OK, warmed = 0;

    memset(&rt, 0, sizeof rt);
    memset(&ctx, 0, sizeof ctx);
    rt.inst = inst;
    rt.seed = instance_seed(opt->seed, inst->key);
    ctx.rt = &rt;
    ctx.bench = b;
    ctx.ops_per_iter = b->ops_per_iter ? b->ops_per_iter : 1;
    parse_subs(&rt, b->subs);

    if (missing) {
        snprintf(rt.reason, sizeof rt.reason, "the %s port lacks %s", tm_port_name(),
                 tm_requires_text(missing, reqbuf, sizeof reqbuf));
        tm_emit_end(inst, "skip", rt.reason, 0, opt);
        return 0;
    }
    if (opt->cpu >= 0)
        tm_os_pin_cpu(opt->cpu);
    if (b->setup)
        setup_rc = b->setup(&ctx);
    if (setup_rc != TM_OK || rt.status != TM_OK) {
        if (rt.status == TM_OK) {
            rt.status = setup_rc;
            snprintf(rt.reason, sizeof rt.reason, "setup returned %d", setup_rc);
        }
        if (b->teardown)
            b->teardown(&ctx);
        tm_emit_end(inst, rt.status == TM_SKIP ? "skip" : "failed", rt.reason, tm_os_now_ns() - start, opt);
        return 0;
    }
    if (ctx.ops_per_iter == 0)
        ctx.ops_per_iter = 1;
    if (b->cold)
        cold_calls(&ctx, opt->samples, env, opt->host_clock);
    if (!(b->flags & TM_F_NO_COUNTERS))
        tm_ctr_open();

    iters = fixed_iters(inst, opt);
    if (!iters && opt->host_clock && !clock_moves()) {
        tm_ctr_close();
        if (b->teardown)
            b->teardown(&ctx);
        tm_emit_end(inst, "skip", "the board's clock stands still: --host-clock needs --iters N here", 0, opt);
        return 0;
    }
    if (!iters)
        iters = calibrate(&ctx, env, target, &calib_ns, &warmed);
    if (!tm_failed(&ctx) && !warmed && !(b->flags & TM_F_NO_WARMUP)) {
        tm_measure warm;
        measure(&ctx, iters, env, 0, &warm);
    }
    if (!opt->text && !tm_failed(&ctx))
        emit_meta(&ctx, iters, calib_ns, env, opt->host_clock);
    if (opt->host_clock && !tm_failed(&ctx))
        host_clock_marks(&ctx, iters, opt->samples);

    for (s = 0; s < opt->samples && !tm_failed(&ctx) && !opt->host_clock; s++) {
        tm_measure m;
        tm_sample_side side;
        int attempt;
        memset(&side, 0, sizeof side);
        for (attempt = 0; attempt < TM_SAMPLE_TAKES; attempt++) {
            long iv0 = tm_os_nivcsw(), mf0 = tm_os_minflt(), iv1, mf1;
            tm_os_usage u0, u1;
            int have_u0 = tm_os_usage_now(&u0) == 0;
            memset(rt.sub_ns, 0, sizeof rt.sub_ns);
            side.cpu0 = tm_os_cpu_current();
            measure(&ctx, iters, env, 1, &m);
            side.cpu1 = tm_os_cpu_current();
            iv1 = tm_os_nivcsw();
            mf1 = tm_os_minflt();
            side.have_usage = have_u0 && tm_os_usage_now(&u1) == 0;
            if (side.have_usage) {
                side.usage.cpu_ns = u1.cpu_ns - u0.cpu_ns;
                side.usage.switches = u1.switches - u0.switches;
                side.usage.faults = u1.faults - u0.faults;
            }
            side.nivcsw = (iv0 >= 0 && iv1 >= 0) ? iv1 - iv0 : -1;
            side.minflt = (mf0 >= 0 && mf1 >= 0) ? mf1 - mf0 : -1;
            if (tm_failed(&ctx) || (b->flags & TM_F_BLOCKING))
                break;
            if (differential(b) && m.ns == 0) { /* the single pass was slowed more than the double */
                side.retaken = 1;
                continue;
            }
            if ((side.nivcsw <= 0 && side.cpu0 == side.cpu1) || attempt >= 1)
                break;
            side.retaken = 1; /* preempted or migrated: take it once more */
        }
        if (tm_failed(&ctx))
            break;
        if (opt->text) {
            uint64_t ops = iters * ctx.ops_per_iter;
            ps_per_op[nsamples] = ops ? m.ns * 1000 / ops : 0;
        } else {
            emit_sample(&ctx, s, iters, &m, &side);
        }
        nsamples++;
    }
    tm_ctr_close();
    if (!opt->text)
        emit_hist(&rt);
    if (b->teardown)
        b->teardown(&ctx);
    if (opt->text && nsamples && rt.status == TM_OK)
        print_text_summary(&ctx, ps_per_op, nsamples, env);
    tm_emit_end(inst, rt.status == TM_OK ? "ok" : rt.status == TM_SKIP ? "skip" : "failed", rt.reason,
                tm_os_now_ns() - start, opt);
    return 0;
}
