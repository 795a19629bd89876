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

#endif
