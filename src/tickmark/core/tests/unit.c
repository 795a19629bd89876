/* Unit tests of the runner's arithmetic: calibration steps, histogram buckets, integer and
 * sweep parsing, name matching, JSON escaping. Prints "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "runner.h"

static int passed, failed;

#define CHECK(cond)                                                       \
    do {                                                                  \
        if (cond)                                                         \
            passed++;                                                     \
        else {                                                            \
            failed++;                                                     \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);        \
        }                                                                 \
    } while (0)

static void test_calibrate_next(void)
{
    CHECK(tm_calibrate_next(1, 100, 10000000) == 10);       /* far below target: x10 */
    CHECK(tm_calibrate_next(1000, 5000000, 10000000) == 2201); /* half way: 1.1 * 2x, rounded up */
    CHECK(tm_calibrate_next(1000, 20000000, 10000000) == 550); /* too long: shrink */
    CHECK(tm_calibrate_next(1, 50000000, 10000000) == 1);    /* never below one */
}

static void test_hist(void)
{
    uint64_t v;
    int prev = -1, ok = 1;
    CHECK(tm_hist_index(0) == 0);
    CHECK(tm_hist_index(31) == 31);
    CHECK(tm_hist_index(32) == 32);
    CHECK(tm_hist_lower(tm_hist_index(1000)) <= 1000);
    for (v = 1; v < (UINT64_C(1) << 40); v = v * 3 / 2 + 1) {
        int idx = tm_hist_index(v);
        uint64_t lo = tm_hist_lower(idx), hi = tm_hist_lower(idx + 1);
        if (idx < prev || lo > v || hi <= v || (v >= 32 && (hi - lo) * 32 > lo + 32))
            ok = 0; /* monotone, contains v, width at most ~1/32 of the value */
        prev = idx;
    }
    CHECK(ok);
}

static void test_parse_int(void)
{
    int64_t v = 0;
    CHECK(tm_parse_int("42", &v) == 0 && v == 42);
    CHECK(tm_parse_int("64K", &v) == 0 && v == 65536);
    CHECK(tm_parse_int("2M", &v) == 0 && v == 2097152);
    CHECK(tm_parse_int("-3", &v) == 0 && v == -3);
    CHECK(tm_parse_int("", &v) != 0);
    CHECK(tm_parse_int("12x", &v) != 0);
    CHECK(tm_parse_int("99999999999999999999", &v) != 0);
    CHECK(tm_parse_int("9223372036854775807", &v) == 0 && v == INT64_MAX);
    CHECK(tm_parse_int("9223372036854775808", &v) != 0);
}

static void test_glob(void)
{
    CHECK(tm_glob_match("sys.*", "sys.getppid"));
    CHECK(!tm_glob_match("sys.*", "sched.pipe"));
    CHECK(tm_glob_match("*", "anything"));
    CHECK(tm_glob_match("s?s.read", "sys.read"));
    CHECK(!tm_glob_match("sys.read", "sys.readv"));
}

static void run_nothing(tm_ctx *ctx, uint64_t iters) { (void)ctx; (void)iters; }

static void test_expand(void)
{
    static const tm_bench b = {.name = "x.ring", .run = run_nothing,
                               .params = {{"procs", "2,4", ""}, {"size", "0,16K", ""}}};
    static tm_options opt;
    tm_instance out[8];
    char err[128];
    int n = tm_expand(&b, &opt, out, 8, err, sizeof err);
    CHECK(n == 4);
    CHECK(strcmp(out[0].key, "x.ring[procs=2,size=0]") == 0);
    CHECK(strcmp(out[3].key, "x.ring[procs=4,size=16384]") == 0);
    strcpy(opt.params[0].name, "size");
    strcpy(opt.params[0].value, "1,2,3");
    opt.nparams = 1;
    CHECK(tm_expand(&b, &opt, out, 8, err, sizeof err) == 6);
    strcpy(opt.params[0].value, "1,,3");
    CHECK(tm_expand(&b, &opt, out, 8, err, sizeof err) == -1 && strstr(err, "size") != NULL);
    /* BENCH:NAME applies to the benchmarks BENCH matches, and wins over NAME in any order */
    strcpy(opt.params[0].value, "1,2,3");
    strcpy(opt.params[1].name, "x.*:size");
    strcpy(opt.params[1].value, "5");
    strcpy(opt.params[2].name, "y.*:procs");
    strcpy(opt.params[2].value, "8");
    opt.nparams = 3;
    CHECK(tm_expand(&b, &opt, out, 8, err, sizeof err) == 2);
    CHECK(strcmp(out[1].key, "x.ring[procs=4,size=5]") == 0);
    opt.nparams = 0;
}

static void test_json(void)
{
    static tm_json j;
    FILE *f = tmpfile();
    char line[256] = "";
    tm_json_begin(&j, f, "x");
    tm_json_str(&j, "s", "a\"b\\c\n");
    tm_json_int(&j, "n", -5);
    tm_json_end(&j);
    rewind(f);
    CHECK(fgets(line, sizeof line, f) != NULL);
    CHECK(strcmp(line, "TM1 {\"t\":\"x\",\"s\":\"a\\\"b\\\\c\\u000a\",\"n\":-5}\n") == 0);
    fclose(f);
}

/* A record longer than the writer's buffer (a hello listing thousands of instances) comes out
 * whole, on one line. */
static void test_json_long(void)
{
    static tm_json j;
    static char line[200000];
    FILE *f = tmpfile();
    int i, n = 5000;
    tm_json_begin(&j, f, "x");
    tm_json_open(&j, "order", '[');
    for (i = 0; i < n; i++)
        tm_json_str(&j, NULL, "mem.lat_rand[size=4096,thp=0]");
    tm_json_close(&j, ']');
    tm_json_end(&j);
    rewind(f);
    CHECK(fgets(line, sizeof line, f) != NULL);
    CHECK(strlen(line) == strlen("TM1 {\"t\":\"x\",\"order\":[]}\n") + (size_t)n * 32 - 1);
    CHECK(strncmp(line, "TM1 {\"t\":\"x\",\"order\":[\"mem.", 26) == 0);
    CHECK(strcmp(line + strlen(line) - 4, "\"]}\n") == 0);
    CHECK(fgets(line, sizeof line, f) == NULL);
    fclose(f);
}

int main(void)
{
    test_calibrate_next();
    test_hist();
    test_parse_int();
    test_glob();
    test_expand();
    test_json();
    test_json_long();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
