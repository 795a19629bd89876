/* The clock reads of the irq.* benchmarks' two-ended timing (irq_common.h). */
#include "irq_common.h"

uint64_t irq_clock_pairs_ticks(void)
{
    uint64_t sum = 0;
    unsigned i;
    for (i = 0; i < IRQ_CLOCK_PAIRS; i++) {
        uint64_t t0 = tm_ticks();
        uint64_t t1 = tm_ticks();
        sum += t1 - t0;
    }
    return sum;
}

void irq_sub_add_path(tm_ctx *ctx, int idx, uint64_t ticks, uint64_t n, uint64_t pairs_ticks)
{
    uint64_t reads = pairs_ticks * n / IRQ_CLOCK_PAIRS;
    tm_sub_add(ctx, idx, tm_ticks_to_ns(ticks > reads ? ticks - reads : 0));
}

void irq_time_paths(tm_ctx *ctx, uint64_t n, void (*trigger)(void), volatile uint32_t *count,
                    volatile uint64_t *stamp, uint64_t pairs_ticks, const char *missed)
{
    uint64_t sum = 0, i;
    for (i = 0; i < n; i++) {
        uint32_t before = *count;
        uint64_t t0 = tm_ticks();
        trigger();
        if (*count != before + 1u) {
            tm_fail(ctx, "%s", missed);
            return;
        }
        sum += *stamp - t0;
    }
    irq_sub_add_path(ctx, 0, sum, n, pairs_ticks);
}
