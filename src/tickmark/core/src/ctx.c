/* The benchmark-facing helpers of bench.h: skip/fail, sub-metrics, sinks. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runner.h"

volatile uint64_t tm_sink;

uint64_t tm_opaque(uint64_t x)
{
    __asm__ __volatile__("" : "+r"(x));
    return x;
}

uint64_t tm_seed(const tm_ctx *ctx)
{
    return ctx->rt->seed;
}

static int set_status(tm_ctx *ctx, int status, const char *fmt, va_list ap)
{
    if (ctx->rt->status == TM_OK) { /* the first reason wins */
        ctx->rt->status = status;
        vsnprintf(ctx->rt->reason, sizeof ctx->rt->reason, fmt, ap);
    }
    return status;
}

int tm_skip(tm_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = set_status(ctx, TM_SKIP, fmt, ap);
    va_end(ap);
    return r;
}

int tm_fail(tm_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = set_status(ctx, TM_FAIL, fmt, ap);
    va_end(ap);
    return r;
}

int tm_failed(const tm_ctx *ctx) { return ctx->rt->status == TM_FAIL; }

void tm_sub_add(tm_ctx *ctx, int idx, uint64_t ns)
{
    if (idx >= 0 && idx < ctx->rt->nsubs)
        ctx->rt->sub_ns[idx] += ns;
}

void tm_info(tm_ctx *ctx, const char *key, int64_t value)
{
    struct tm_runtime *rt = ctx->rt;
    int i;
    for (i = 0; i < rt->ninfo; i++)
        if (strcmp(rt->info_names[i], key) == 0)
            break;
    if (i == TM_MAX_INFO)
        return;
    if (i == rt->ninfo) {
        snprintf(rt->info_names[i], sizeof rt->info_names[i], "%s", key);
        rt->ninfo++;
    }
    rt->info_vals[i] = value;
}
