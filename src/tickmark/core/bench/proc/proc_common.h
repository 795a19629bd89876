/* Shared by the proc benchmarks: start a child with start(), reap it, check it exited 0. */
#ifndef TICKMARK_PROC_COMMON_H
#define TICKMARK_PROC_COMMON_H

#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

/* iters times: start a child, wait for it, require exit status 0 (else tm_fail). */
void proc_loop(tm_ctx *ctx, uint64_t iters, tm_os_pid (*start)(void), const char *what);
/* setup helper: skip when the port cannot name the running program or exec it (one trial). */
int need_self_exe(tm_ctx *ctx);

#endif
