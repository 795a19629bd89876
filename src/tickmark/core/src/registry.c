/* The list of benchmarks (tm_bench_list.h, generated at build time), name matching, parameter sweeps. */
#include <stdio.h>
#include <string.h>

#include "runner.h"
#include "tickmark/osal.h"

#define TM_BENCH_ENTRY(id) extern const tm_bench tm_bench_##id;
#include "tm_bench_list.h"
#undef TM_BENCH_ENTRY

/* Extra descriptors linked into special builds (the test suite's crash benchmarks). */
extern const tm_bench *const tm_extra_benches[] __attribute__((weak));

#define TM_BENCH_ENTRY(id) &tm_bench_##id,
static const tm_bench *const builtin[] = {
#include "tm_bench_list.h"
    NULL};
#undef TM_BENCH_ENTRY

const tm_bench *const *tm_registry(void)
{
    static const tm_bench *all[sizeof builtin / sizeof builtin[0] + 16];
    size_t n = 0, i;
    if (all[0])
        return all;
    for (i = 0; builtin[i]; i++)
        all[n++] = builtin[i];
    for (i = 0; tm_extra_benches && tm_extra_benches[i] && n + 1 < sizeof all / sizeof all[0]; i++)
        all[n++] = tm_extra_benches[i];
    all[n] = NULL;
    return all;
}

/* Shell-style match: '*' any run, '?' any one character. */
int tm_glob_match(const char *p, const char *s)
{
    if (*p == '\0')
        return *s == '\0';
    if (*p == '*')
        return tm_glob_match(p + 1, s) || (*s && tm_glob_match(p, s + 1));
    if (*s && (*p == '?' || *p == *s))
        return tm_glob_match(p + 1, s + 1);
    return 0;
}

/* Integer with an optional binary suffix K, M or G. */
int tm_parse_int(const char *s, int64_t *out)
{
    int64_t v = 0;
    int neg = 0, digits = 0;
    if (*s == '-') {
        neg = 1;
        s++;
    }
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        if (v > (INT64_MAX - (*s - '0')) / 10) /* exact: every value up to INT64_MAX is read */
            return -1;
        v = v * 10 + (*s - '0');
    }
    if (!digits)
        return -1;
    {
        int shift = (*s == 'K' || *s == 'k') ? 10 : (*s == 'M' || *s == 'm') ? 20 : (*s == 'G' || *s == 'g') ? 30 : 0;
        if (shift) {
            if (v > (INT64_MAX >> shift)) /* would overflow */
                return -1;
            v <<= shift;
            s++;
        }
    }
    if (*s != '\0')
        return -1;
    *out = neg ? -v : v;
    return 0;
}

static int parse_list(const char *text, int64_t *vals, int max)
{
    char item[64];
    int n = 0, k;
    while (*text) {
        size_t len = strcspn(text, ",");
        if (len == 0 || len >= sizeof item || n == max)
            return -1;
        memcpy(item, text, len);
        item[len] = '\0';
        if (tm_parse_int(item, &vals[n]) != 0)
            return -1;
        for (k = 0; k < n; k++) /* a value twice would run one instance twice */
            if (vals[k] == vals[n])
                return -1;
        n++;
        text += len;
        if (*text == ',')
            text++;
    }
    return n;
}

/* The default values of parameter i of b: its sweep; for the parameter that counts CPUs
 * (cpus_param) the values up to this machine's CPU count, and that count itself where it falls
 * between two of them (6 CPUs: 1,2,4,6), so that a small board runs no instance it must skip. */
const char *tm_param_sweep(const tm_bench *b, int i, char *buf, size_t len)
{
    const char *sweep = b->params[i].sweep ? b->params[i].sweep : "";
    int64_t vals[TM_MAX_SWEEP], cpus = tm_os_cpu_count(), top = 0;
    int n, k, have = 0;
    size_t used = 0;
    if (!b->cpus_param || strcmp(b->cpus_param, b->params[i].name) != 0 || cpus < 1)
        return sweep;
    n = parse_list(sweep, vals, TM_MAX_SWEEP);
    if (n <= 0)
        return sweep;
    buf[0] = '\0';
    for (k = 0; k < n; k++) {
        top = vals[k] > top ? vals[k] : top;
        have |= vals[k] == cpus;
        if (vals[k] <= cpus)
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%lld", used ? "," : "",
                                     (long long)vals[k]);
    }
    if (!have && cpus < top)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%lld", used ? "," : "", (long long)cpus);
    return used && used < len ? buf : sweep;
}

/* The sweep an override gives parameter `param` of benchmark b, or NULL: "NAME=V,V" applies to
 * every benchmark with that parameter, "BENCH:NAME=V,V" (BENCH a glob of benchmark names) only
 * to those it matches, and wins over the first form. */
static const char *override_of(const tm_bench *b, const char *param, const tm_options *opt)
{
    const char *any = NULL, *scoped = NULL;
    char scope[sizeof opt->params[0].name];
    int k;
    for (k = 0; k < opt->nparams; k++) {
        const char *name = opt->params[k].name, *colon = strchr(name, ':');
        if (!colon) {
            if (strcmp(name, param) == 0)
                any = opt->params[k].value;
            continue;
        }
        memcpy(scope, name, (size_t)(colon - name));
        scope[colon - name] = '\0';
        if (strcmp(colon + 1, param) == 0 && tm_glob_match(scope, b->name))
            scoped = opt->params[k].value;
    }
    return scoped ? scoped : any;
}

/* The text of parameter name in a "NAME=TEXT[,NAME=TEXT]" list (ranges, unkeyed) into buf, or NULL. */
static const char *entry_of(const char *list, const char *name, char *buf, size_t len)
{
    size_t n = strlen(name), k;
    while (list && *list) {
        k = strcspn(list, ",");
        if (k > n && strncmp(list, name, n) == 0 && list[n] == '=' && k - n - 1 < len) {
            memcpy(buf, list + n + 1, k - n - 1);
            buf[k - n - 1] = '\0';
            return buf;
        }
        list += k + (list[k] == ',');
    }
    return NULL;
}

const char *tm_param_range(const tm_bench *b, int i, char *buf, size_t len)
{
    return entry_of(b->ranges, b->params[i].name, buf, len);
}

const char *tm_param_unkeyed(const tm_bench *b, int i, char *buf, size_t len)
{
    return entry_of(b->unkeyed, b->params[i].name, buf, len);
}

/* Whether v lies in a range "LO..HI" (no range: every value). */
static int in_range(const char *range, int64_t v)
{
    char lo_text[32];
    const char *dots = range ? strstr(range, "..") : NULL;
    int64_t lo, hi;
    size_t n;
    if (!dots)
        return 1;
    n = (size_t)(dots - range);
    if (n >= sizeof lo_text)
        return 1;
    memcpy(lo_text, range, n);
    lo_text[n] = '\0';
    return tm_parse_int(lo_text, &lo) != 0 || tm_parse_int(dots + 2, &hi) != 0 || (v >= lo && v <= hi);
}

/* Expand a benchmark into instances: the cartesian product of its parameter sweeps. */
int tm_expand(const tm_bench *b, const tm_options *opt, tm_instance *out, int max, char *err, size_t errlen)
{
    int64_t sweep[TM_MAX_PARAMS][TM_MAX_SWEEP];
    char defaults[256], range_buf[64];
    const char *range;
    int quiet[TM_MAX_PARAMS];
    int64_t quiet_value[TM_MAX_PARAMS];
    int count[TM_MAX_PARAMS], np = 0, total = 1, i, k, shown;
    for (i = 0; i < TM_MAX_PARAMS && b->params[i].name; i++, np++) {
        const char *text = override_of(b, b->params[i].name, opt);
        if (!text)
            text = tm_param_sweep(b, i, defaults, sizeof defaults);
        count[i] = parse_list(text ? text : "0", sweep[i], TM_MAX_SWEEP);
        if (count[i] <= 0) {
            snprintf(err, errlen,
                     "bad values for parameter %s of %s: '%.80s' (want up to %d different integers like 4,16,64K)",
                     b->params[i].name, b->name, text ? text : "", TM_MAX_SWEEP);
            return -1;
        }
        range = tm_param_range(b, i, range_buf, sizeof range_buf);
        for (k = 0; k < count[i]; k++)
            if (!in_range(range, sweep[i][k])) {
                snprintf(err, errlen, "parameter %s of %s: %lld is outside %s", b->params[i].name, b->name,
                         (long long)sweep[i][k], range);
                return -1;
            }
        quiet[i] = tm_param_unkeyed(b, i, range_buf, sizeof range_buf) &&
                   tm_parse_int(range_buf, &quiet_value[i]) == 0;
        total *= count[i];
    }
    if (total > max) {
        snprintf(err, errlen, "sweep of %s has %d points, more than %d", b->name, total, max);
        return -1;
    }
    for (k = 0; k < total; k++) {
        tm_instance *inst = &out[k];
        int rest = k, len;
        inst->bench = b;
        inst->nparams = np;
        len = snprintf(inst->key, sizeof inst->key, "%s", b->name);
        for (i = np - 1; i >= 0; i--) { /* last parameter varies fastest */
            inst->values[i] = sweep[i][rest % count[i]];
            rest /= count[i];
        }
        for (i = 0, shown = 0; i < np; i++) {
            if (quiet[i] && quiet_value[i] == inst->values[i])
                continue;
            len += snprintf(inst->key + len, sizeof inst->key - (size_t)len, "%s%s=%lld", shown++ ? "," : "[",
                            b->params[i].name, (long long)inst->values[i]);
        }
        if (shown)
            snprintf(inst->key + len, sizeof inst->key - (size_t)len, "]");
    }
    return total;
}

static const char *const req_names[] = {"processes", "threads", "files", "pipes", "sockets",
                                        "signals", "syscalls", "exec", "multicore", "mmap"};

const char *tm_requires_text(unsigned req, char *buf, size_t len)
{
    size_t i, used = 0;
    buf[0] = '\0';
    for (i = 0; i < sizeof req_names / sizeof req_names[0]; i++)
        if (req & (1u << i))
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? "," : "",
                                     req_names[i]);
    return buf;
}

unsigned tm_missing_caps(const tm_bench *b)
{
    unsigned have = tm_port_caps();
    if (tm_os_cpu_count() < 2)
        have &= ~(unsigned)TM_REQ_MULTICORE;
    return b->requires & ~have;
}

int64_t tm_param(const tm_ctx *ctx, const char *name)
{
    const tm_instance *inst = ctx->rt->inst;
    int i;
    for (i = 0; i < inst->nparams; i++)
        if (strcmp(inst->bench->params[i].name, name) == 0)
            return inst->values[i];
    return 0;
}
