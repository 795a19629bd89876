/* Benchmarks built only into the test suite's core, to prove isolation: one crashes, one
 * hangs, one fails verification. Linked with EXTRA_SRCS=tests/crash_bench.c. */
#include <signal.h>

#include "tickmark/bench.h"

static void run_crash(tm_ctx *ctx, uint64_t iters)
{
    (void)ctx;
    (void)iters;
    raise(SIGSEGV);
}

static void run_hang(tm_ctx *ctx, uint64_t iters)
{
    (void)ctx;
    (void)iters;
    for (;;)
        tm_clobber();
}

static void run_wrong(tm_ctx *ctx, uint64_t iters)
{
    (void)iters;
    tm_fail(ctx, "result does not verify: expected 42, got 41");
}

static const tm_bench crash = {.name = "test.crash", .summary = "dies of SIGSEGV", .run = run_crash};
static const tm_bench hang = {.name = "test.hang", .summary = "never returns", .run = run_hang};
static const tm_bench wrong = {.name = "test.wrong", .summary = "fails verification", .run = run_wrong};

const tm_bench *const tm_extra_benches[] = {&crash, &hang, &wrong, NULL};
