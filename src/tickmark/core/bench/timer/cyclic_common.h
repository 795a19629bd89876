/* Shared by timer.cyclic and timer.cyclic_rt: the cyclictest-style wake-up loop. */
#ifndef TICKMARK_CYCLIC_COMMON_H
#define TICKMARK_CYCLIC_COMMON_H

#include "tickmark/bench.h"

#define CYCLIC_PARAMS                                                                        \
    {{"period", "200", "wake-up period in microseconds"},                                    \
     {"count", "500", "wake-ups per iteration (a sample is at least one iteration)"}}

int cyclic_setup(tm_ctx *ctx, int rt);
void cyclic_run(tm_ctx *ctx, uint64_t iters);
void cyclic_teardown(tm_ctx *ctx);

#endif
