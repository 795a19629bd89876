/* sys.getppid — the null system call.
 * One operation: one getppid trap into the kernel through the port's raw syscall path (no libc
 * caching). Timed: the calls only, 10 per loop iteration; loop and clock overhead removed. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

static void run(tm_ctx *ctx, uint64_t iters)
{
    long acc = 0;
    (void)ctx;
    while (iters--)
        TM_REPEAT(acc += tm_os_null_syscall());
    tm_sink = (uint64_t)acc;
}

TM_BENCH(sys_getppid) = {
    .name = "sys.getppid",
    .summary = "null system call: getppid() trapping into the kernel",
    .unit = "call",
    .ops_per_iter = TM_REPEAT_COUNT,
    .requires = TM_REQ_SYSCALLS,
    .run = run,
};
