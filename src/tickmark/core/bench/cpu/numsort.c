/* cpu.numsort — nbench 2.2.3 "numeric sort": one iteration heapsorts one array of 8111 C longs
 * (the benchmark generator's output after a reset) with the reference's heapsort variant
 * (heap built from T/2 down to index 1; index 0 acts as an extra root).
 * Timed: restoring the unsorted array from a pristine copy (one 8111-element memcpy; the
 * reference regenerates it untimed) and the sort. Verified every iteration: the result must
 * equal a reference sorted once in setup with qsort (one memcmp). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_common.h"

#define NS_LEN 8111

typedef struct ns_state {
    void *raw[3];
    long *work, *pristine, *sorted;
} ns_state;

static void ns_sift(long *a, size_t i, size_t j)
{
    while (2 * i <= j) {
        size_t k = 2 * i;
        if (k < j && a[k] < a[k + 1])
            k++;
        if (a[i] < a[k]) {
            long t = a[k];
            a[k] = a[i];
            a[i] = t;
            i = k;
        } else {
            break;
        }
    }
}

static void ns_heapsort(long *a, size_t top)
{
    size_t i;
    for (i = top / 2; i > 0; i--)
        ns_sift(a, i, top);
    for (i = top; i > 0; i--) {
        long t;
        ns_sift(a, 0, i);
        t = a[0];
        a[0] = a[i];
        a[i] = t;
    }
}

static int ns_cmp(const void *pa, const void *pb)
{
    long a = *(const long *)pa, b = *(const long *)pb;
    return (a > b) - (a < b);
}

static int ns_setup(tm_ctx *ctx)
{
    ns_state *s = calloc(1, sizeof *s);
    nb_rng r;
    size_t i;
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    s->work = nb_alloc(NS_LEN * sizeof(long), &s->raw[0]);
    s->pristine = nb_alloc(NS_LEN * sizeof(long), &s->raw[1]);
    s->sorted = nb_alloc(NS_LEN * sizeof(long), &s->raw[2]);
    if (!s->work || !s->pristine || !s->sorted)
        return tm_fail(ctx, "out of memory");
    nb_reset(&r);
    for (i = 0; i < NS_LEN; i++)
        s->pristine[i] = nb_next(&r);
    memcpy(s->sorted, s->pristine, NS_LEN * sizeof(long));
    qsort(s->sorted, NS_LEN, sizeof(long), ns_cmp);
    if (s->pristine[0] != -515045 || s->sorted[0] != -999413 || s->sorted[4055] != -5337 ||
        s->sorted[NS_LEN - 1] != 999511)
        return tm_fail(ctx, "numsort: generated data differ from the reference workload");
    return TM_OK;
}

static void ns_run(tm_ctx *ctx, uint64_t iters)
{
    ns_state *s = ctx->user;
    while (iters--) {
        memcpy(s->work, s->pristine, NS_LEN * sizeof(long));
        tm_escape(s->work);
        ns_heapsort(s->work, NS_LEN - 1);
        tm_escape(s->work);
        if (memcmp(s->work, s->sorted, NS_LEN * sizeof(long)) != 0) {
            tm_fail(ctx, "numsort: heapsort output is not the sorted input");
            return;
        }
    }
}

static void ns_teardown(tm_ctx *ctx)
{
    ns_state *s = ctx->user;
    if (s)
        nb_release(ctx, s->raw, 3);
}

TM_BENCH(cpu_numsort) = {
    .name = "cpu.numsort",
    .summary = "nbench numeric sort: heapsort of 8111 longs",
    .verifies = "the heapsort output equals the input sorted by qsort",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = ns_run,
    .setup = ns_setup,
    .teardown = ns_teardown,
};
