/* Log-linear latency histogram: values below TM_HIST_SUB ns get a bucket each; above that,
 * every power of two is split into TM_HIST_SUB equal buckets (about 3% wide). */
#include "runner.h"

static int log2_floor(uint64_t v)
{
    int r = 0;
    while (v >>= 1)
        r++;
    return r;
}

int tm_hist_index(uint64_t ns)
{
    int shift, idx;
    if (ns < TM_HIST_SUB)
        return (int)ns;
    shift = log2_floor(ns) - 5; /* TM_HIST_SUB == 1 << 5 */
    idx = (shift + 1) * TM_HIST_SUB + (int)((ns >> shift) - TM_HIST_SUB);
    return idx < TM_HIST_BUCKETS ? idx : TM_HIST_BUCKETS - 1;
}

uint64_t tm_hist_lower(int idx)
{
    int shift;
    if (idx < TM_HIST_SUB)
        return (uint64_t)idx;
    shift = idx / TM_HIST_SUB - 1;
    return (uint64_t)(TM_HIST_SUB + idx % TM_HIST_SUB) << shift;
}

void tm_hist_add(tm_ctx *ctx, uint64_t ns)
{
    struct tm_runtime *rt = ctx->rt;
    rt->hist[tm_hist_index(ns)]++;
    if (rt->hist_count == 0 || ns < rt->hist_min)
        rt->hist_min = ns;
    if (ns > rt->hist_max)
        rt->hist_max = ns;
    rt->hist_count++;
    rt->hist_sum += ns;
}
