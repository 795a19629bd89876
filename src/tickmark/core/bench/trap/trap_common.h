/* What the trap.* benchmarks share: the set-up, body and tear-down around the port's kernel-entry
 * hook (osal.h: tm_os_trap_open/run/close), for one kind of entry. Not a benchmark itself. */
#ifndef TICKMARK_TRAP_COMMON_H
#define TICKMARK_TRAP_COMMON_H

#include "tickmark/bench.h"

/* Install the handler of kind (TM_TRAP_*): TM_OK, or skip with the port's reason. */
int tm_trap_setup(tm_ctx *ctx, int kind);
/* iters entries of the kind set up; the benchmark fails with the port's word if one went wrong */
void tm_trap_run(tm_ctx *ctx, uint64_t iters);
void tm_trap_teardown(tm_ctx *ctx);

#endif
