/* The cyclictest-style wake-up loop shared by timer.cyclic and timer.cyclic_rt. */
#include "cyclic_common.h"
#include "tickmark/osal_prim.h"

static int is_rt, locked;

int cyclic_setup(tm_ctx *ctx, int rt)
{
    int64_t period = tm_param(ctx, "period"), count = tm_param(ctx, "count");
    const char *why = "";
    uint64_t res = tm_os_sleep_res_ns();
    if (period < 10 || period > 1000000)
        return tm_fail(ctx, "period must be 10 .. 1000000 us");
    tm_info(ctx, "sleep_res_ns", (int64_t)res);
    if ((uint64_t)period * 1000 < res)
        return tm_skip(ctx, "a sleep on the %s port ends on a %llu us step (its tick): a %lld us period cannot be kept "
                       "(--param period=N, N a multiple of it)", tm_port_name(), (unsigned long long)(res / 1000),
                       (long long)period);
    if (count < 1 || count > 1000000)
        return tm_fail(ctx, "count must be 1 .. 1000000");
    ctx->ops_per_iter = (uint64_t)count;
    is_rt = locked = 0;
    if (rt) {
        if (tm_os_set_rt_priority(80, &why) != 0)
            return tm_skip(ctx, "SCHED_FIFO priority 80 not permitted (%s); see timer.cyclic", why);
        is_rt = 1;
        locked = tm_os_lock_memory() == 0;
    }
    return TM_OK;
}

void cyclic_run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t period = (uint64_t)tm_param(ctx, "period") * 1000, n = iters * ctx->ops_per_iter;
    uint64_t next = tm_now_ns() + period, late_sum = 0, i;
    for (i = 0; i < n; i++) {
        uint64_t now, late;
        if (tm_os_sleep_until_ns(next) != 0) {
            tm_fail(ctx, "clock_nanosleep failed");
            return;
        }
        now = tm_now_ns();
        late = now > next ? now - next : 0;
        tm_hist_add(ctx, late);
        late_sum += late;
        do /* a missed period is skipped, not caught up with a burst of early wake-ups */
            next += period;
        while (next <= now);
    }
    tm_sub_add(ctx, 0, late_sum);
}

void cyclic_teardown(tm_ctx *ctx)
{
    (void)ctx;
    if (is_rt)
        tm_os_set_normal_priority();
    if (locked)
        tm_os_unlock_memory();
    is_rt = locked = 0;
}
