/* cpu.assign — nbench 2.2.3 "assignment": one iteration solves one 101 x 101 cost-matrix
 * assignment problem (C long costs from the benchmark generator) with the reference's
 * textbook Hungarian-style method: row and column reduction, then alternating "first
 * assignments" (phase A) and matrix revision (phase B) until 101 independent zeros are assigned.
 * Timed: restoring the matrix from a pristine copy (one 81 KB memcpy on LP64, ~0.1% of the
 * iteration; the reference refills it untimed), the solve and the verification. Verified every
 * iteration: the assigned cells form a permutation, the final reduced matrix is non-negative
 * with zeros on the assignment (so the assignment is optimal), and the original cost equals the
 * one found in setup (the published 1,773,239). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_common.h"

#define AS_N 101

typedef struct as_state {
    void *raw[2];
    long (*m)[AS_N], (*pristine)[AS_N];
    short mark[AS_N][AS_N]; /* 0 free, 1 assigned, 2 eliminated */
    int rowflag[AS_N], colflag[AS_N];
    long cost;
} as_state;

static void as_reduce(long (*m)[AS_N])
{
    int i, j;
    for (i = 0; i < AS_N; i++) {
        long lo = m[i][0];
        for (j = 1; j < AS_N; j++)
            if (m[i][j] < lo)
                lo = m[i][j];
        for (j = 0; j < AS_N; j++)
            m[i][j] -= lo;
    }
    for (j = 0; j < AS_N; j++) {
        long lo = m[0][j];
        for (i = 1; i < AS_N; i++)
            if (m[i][j] < lo)
                lo = m[i][j];
        if (lo != 0)
            for (i = 0; i < AS_N; i++)
                m[i][j] -= lo;
    }
}

static int as_phase_a(as_state *s)
{
    long (*m)[AS_N] = s->m;
    int total = 0, made, i, j, k;
    memset(s->mark, 0, sizeof s->mark);
    do {
        made = 0;
        for (i = 0; i < AS_N; i++) {
            int n = 0, sel = 0;
            for (j = 0; j < AS_N; j++)
                if (m[i][j] == 0 && s->mark[i][j] == 0) {
                    n++;
                    sel = j;
                }
            if (n == 1) {
                s->mark[i][sel] = 1;
                made++;
                for (k = 0; k < AS_N; k++)
                    if (k != i && m[k][sel] == 0)
                        s->mark[k][sel] = 2;
            }
        }
        for (j = 0; j < AS_N; j++) {
            int n = 0, sel = 0;
            for (i = 0; i < AS_N; i++)
                if (m[i][j] == 0 && s->mark[i][j] == 0) {
                    n++;
                    sel = i;
                }
            if (n == 1) {
                s->mark[sel][j] = 1;
                made++;
                for (k = 0; k < AS_N; k++)
                    if (k != j && m[sel][k] == 0)
                        s->mark[sel][k] = 2;
            }
        }
        total += made;
    } while (made);
    if (total == AS_N)
        return total;
    for (i = 0; i < AS_N; i++) {
        for (j = 0; j < AS_N; j++)
            if (m[i][j] == 0 && s->mark[i][j] == 0)
                break;
        if (j == AS_N)
            continue;
        s->mark[i][j] = 1;
        total++;
        for (k = 0; k < AS_N; k++) {
            if (k != j && m[i][k] == 0)
                s->mark[i][k] = 2;
            if (k != i && m[k][j] == 0)
                s->mark[k][j] = 2;
        }
    }
    return total;
}

static void as_phase_b(as_state *s)
{
    long (*m)[AS_N] = s->m;
    int i, j, grew;
    long lo = -1;
    for (i = 0; i < AS_N; i++) {
        s->rowflag[i] = 1;
        s->colflag[i] = 0;
        for (j = 0; j < AS_N; j++)
            if (s->mark[i][j] == 1)
                s->rowflag[i] = 0;
    }
    do {
        grew = 0;
        for (i = 0; i < AS_N; i++)
            if (s->rowflag[i])
                for (j = 0; j < AS_N; j++)
                    if (m[i][j] == 0)
                        s->colflag[j] = 1;
        for (j = 0; j < AS_N; j++)
            if (s->colflag[j])
                for (i = 0; i < AS_N; i++)
                    if (s->mark[i][j] == 1 && !s->rowflag[i]) {
                        s->rowflag[i] = 1;
                        grew = 1;
                    }
    } while (grew);
    for (i = 0; i < AS_N; i++)
        if (s->rowflag[i])
            for (j = 0; j < AS_N; j++)
                if (!s->colflag[j] && (lo < 0 || m[i][j] < lo))
                    lo = m[i][j];
    for (i = 0; i < AS_N; i++)
        for (j = 0; j < AS_N; j++) {
            if (s->rowflag[i] && !s->colflag[j])
                m[i][j] -= lo;
            else if (!s->rowflag[i] && s->colflag[j])
                m[i][j] += lo;
        }
}

static void as_solve(as_state *s)
{
    as_reduce(s->m);
    while (as_phase_a(s) != AS_N)
        as_phase_b(s);
}

/* Cost of the assignment, or -1 if it is not an optimal permutation. */
static long as_check(const as_state *s)
{
    int used[AS_N] = {0}, i, j;
    long cost = 0;
    for (i = 0; i < AS_N; i++) {
        int n = 0;
        for (j = 0; j < AS_N; j++) {
            if (s->m[i][j] < 0)
                return -1;
            if (s->mark[i][j] == 1) {
                if (s->m[i][j] != 0 || used[j]++)
                    return -1;
                n++;
                cost += s->pristine[i][j];
            }
        }
        if (n != 1)
            return -1;
    }
    return cost;
}

static int as_setup(tm_ctx *ctx)
{
    as_state *s = calloc(1, sizeof *s);
    nb_rng r;
    int i, j;
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    s->m = nb_alloc(sizeof(long) * AS_N * AS_N, &s->raw[0]);
    s->pristine = nb_alloc(sizeof(long) * AS_N * AS_N, &s->raw[1]);
    if (!s->m || !s->pristine)
        return tm_fail(ctx, "out of memory");
    nb_reset(&r);
    for (i = 0; i < AS_N; i++)
        for (j = 0; j < AS_N; j++)
            s->pristine[i][j] = nb_abs_randwc(&r, 5000000);
    if (s->pristine[0][0] != 515045 || s->pristine[0][1] != 392519 || s->pristine[1][0] != 48310)
        return tm_fail(ctx, "assign: generated costs differ from the reference workload");
    memcpy(s->m, s->pristine, sizeof(long) * AS_N * AS_N);
    as_solve(s);
    s->cost = as_check(s);
    if (s->cost != 1773239)
        return tm_fail(ctx, "assign: solution cost %ld, expected 1773239", s->cost);
    return TM_OK;
}

static void as_run(tm_ctx *ctx, uint64_t iters)
{
    as_state *s = ctx->user;
    while (iters--) {
        memcpy(s->m, s->pristine, sizeof(long) * AS_N * AS_N);
        tm_escape(s->m);
        as_solve(s);
        tm_escape(s->m);
        if (as_check(s) != s->cost) {
            tm_fail(ctx, "assign: the assignment is not an optimal permutation");
            return;
        }
    }
}

static void as_teardown(tm_ctx *ctx)
{
    as_state *s = ctx->user;
    if (s)
        nb_release(ctx, s->raw, 2);
}

TM_BENCH(cpu_assign) = {
    .name = "cpu.assign",
    .summary = "nbench assignment: one 101x101 cost-matrix assignment problem",
    .verifies = "the assignment is a permutation, optimal, of the reference cost",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = as_run,
    .setup = as_setup,
    .teardown = as_teardown,
};
