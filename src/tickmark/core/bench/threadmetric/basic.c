/* threadmetric.basic — the suite's yardstick (Thread-Metric's "basic processing"): one operation
 * is one pass over an array of 64 words, each word replaced by a mix of itself, its index and
 * the running sum (an add, a shift, an exclusive or and a store). No system call: what it counts
 * is the CPU and the compiler, so the other threadmetric figures, divided by it, compare systems
 * on one board as the published tables do. Timed: the passes. Not timed: filling the array. */
#include "tickmark/bench.h"

#define WORDS 64

static volatile uint32_t words[WORDS];

static int setup(tm_ctx *ctx)
{
    uint64_t x = tm_seed(ctx) | 1;
    int i;
    for (i = 0; i < WORDS; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        words[i] = (uint32_t)x;
    }
    return TM_OK;
}

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint32_t sum = 0;
    uint64_t n;
    int i;
    (void)ctx;
    for (n = 0; n < iters; n++)
        for (i = 0; i < WORDS; i++) {
            uint32_t w = words[i] + (uint32_t)i;
            sum += w;
            words[i] = w ^ (sum >> 3);
        }
    tm_sink += sum;
}

TM_BENCH(threadmetric_basic) = {
    .name = "threadmetric.basic",
    .summary = "basic processing: one pass of add, shift, xor and store over 64 words",
    .unit = "pass",
    .setup = setup,
    .run = run,
};
