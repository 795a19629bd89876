/* proc.spawn — one operation is posix_spawn() of a program that exits at once and wait for
 * it. The program is this core binary with TICKMARK_EXIT_NOW=1 (see proc.fork_exec); glibc
 * implements posix_spawn with vfork-like clone, so the parent's page tables are not copied.
 * Timed: posix_spawn, the child's start-up and exit, wait. Not timed: the trial exec in setup. */
#include "proc_common.h"

static void run(tm_ctx *ctx, uint64_t iters) { proc_loop(ctx, iters, tm_os_spawn_self_exit, "posix_spawn"); }

TM_BENCH(proc_spawn) = {
    .name = "proc.spawn",
    .summary = "posix_spawn of a program that exits at once (the core itself) + wait",
    .unit = "process",
    .requires = TM_REQ_PROCESSES | TM_REQ_EXEC,
    .flags = TM_F_BLOCKING | TM_F_NO_COUNTERS | TM_F_SLOW,
    .setup = need_self_exe,
    .run = run,
};
