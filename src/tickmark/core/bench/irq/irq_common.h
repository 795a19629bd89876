/* What the irq.* benchmarks share: timing a path that starts in one context (the thread that
 * raises the interrupt) and ends in another (the handler, a woken thread), by the clock read at
 * both ends. Not a benchmark itself. */
#ifndef TICKMARK_IRQ_COMMON_H
#define TICKMARK_IRQ_COMMON_H

#include <stdint.h>

#include "tickmark/bench.h"

/* The ticks two back-to-back clock reads (tm_ticks) take, over IRQ_CLOCK_PAIRS pairs: what a
 * latency read at both ends of a path holds besides the path. */
#define IRQ_CLOCK_PAIRS 256u
uint64_t irq_clock_pairs_ticks(void);
/* Add to sub-metric idx the path of n events whose two-ended readings sum to ticks, the clock
 * reads (pairs_ticks from irq_clock_pairs_ticks) taken out. */
void irq_sub_add_path(tm_ctx *ctx, int idx, uint64_t ticks, uint64_t n, uint64_t pairs_ticks);

/* n events, each: read the clock, trigger(), which must have ended (a handler, a woken thread)
 * with *count one higher and the clock read into *stamp; the paths go to sub-metric 0, the
 * clock reads (pairs_ticks) taken out. An event that did not happen fails the benchmark with
 * missed. */
void irq_time_paths(tm_ctx *ctx, uint64_t n, void (*trigger)(void), volatile uint32_t *count,
                    volatile uint64_t *stamp, uint64_t pairs_ticks, const char *missed);

#endif
