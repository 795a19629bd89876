/* cpu.lu — nbench 2.2.3 "LU decomposition": one iteration solves one 101 x 101 linear system
 * (a diagonal system scrambled by 808 generator-chosen row additions/subtractions) in place:
 * Crout LU decomposition with implicit-scaling partial pivoting and physical row swaps, then
 * forward and back substitution.
 * Timed: copying the seed system into the working slot (81 KB; the reference copies it untimed,
 * which also leaves it in cache; the copy is about 2% of the iteration), the solve and the
 * verification. Verified every iteration: the solution matches the exact one, b_i / d_i of the
 * original diagonal system, to a relative 1e-9. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_common.h"

#define LU_N 101

typedef struct lu_state {
    void *raw[2];
    double (*a)[LU_N], (*seed)[LU_N];
    double b[LU_N], seed_b[LU_N], exact[LU_N], scale[LU_N];
    int piv[LU_N];
} lu_state;

static int lu_decompose(double (*a)[LU_N], int *piv, double *scale)
{
    int i, j, k;
    for (i = 0; i < LU_N; i++) {
        double big = 0.0;
        for (j = 0; j < LU_N; j++)
            if (fabs(a[i][j]) > big)
                big = fabs(a[i][j]);
        if (big == 0.0)
            return 0;
        scale[i] = 1.0 / big;
    }
    for (j = 0; j < LU_N; j++) {
        double big = 0.0;
        int imax = j;
        for (i = 0; i < j; i++) {
            double sum = a[i][j];
            for (k = 0; k < i; k++)
                sum -= a[i][k] * a[k][j];
            a[i][j] = sum;
        }
        for (i = j; i < LU_N; i++) {
            double sum = a[i][j], d;
            for (k = 0; k < j; k++)
                sum -= a[i][k] * a[k][j];
            a[i][j] = sum;
            d = scale[i] * fabs(sum);
            if (d >= big) {
                big = d;
                imax = i;
            }
        }
        if (imax != j) {
            double t;
            for (k = 0; k < LU_N; k++) {
                t = a[imax][k];
                a[imax][k] = a[j][k];
                a[j][k] = t;
            }
            t = scale[imax];
            scale[imax] = scale[j];
            scale[j] = t;
        }
        piv[j] = imax;
        if (a[j][j] == 0.0)
            a[j][j] = 1e-20;
        if (j != LU_N - 1) {
            double inv = 1.0 / a[j][j];
            for (i = j + 1; i < LU_N; i++)
                a[i][j] *= inv;
        }
    }
    return 1;
}

static void lu_substitute(double (*a)[LU_N], const int *piv, double *b)
{
    int i, j, first = -1;
    for (i = 0; i < LU_N; i++) {
        double sum = b[piv[i]];
        b[piv[i]] = b[i];
        if (first >= 0) {
            for (j = first; j < i; j++)
                sum -= a[i][j] * b[j];
        } else if (sum != 0.0) {
            first = i;
        }
        b[i] = sum;
    }
    for (i = LU_N - 1; i >= 0; i--) {
        double sum = b[i];
        for (j = i + 1; j < LU_N; j++)
            sum -= a[i][j] * b[j];
        b[i] = sum / a[i][i];
    }
}

static int lu_check(const lu_state *s)
{
    int i;
    for (i = 0; i < LU_N; i++)
        if (!(fabs(s->b[i] - s->exact[i]) <= 1e-9 * fabs(s->exact[i])))
            return 0;
    return 1;
}

static int lu_solve(lu_state *s)
{
    memcpy(s->a, s->seed, sizeof(double) * LU_N * LU_N);
    memcpy(s->b, s->seed_b, sizeof s->b);
    tm_escape(s->a);
    if (!lu_decompose(s->a, s->piv, s->scale))
        return 0;
    lu_substitute(s->a, s->piv, s->b);
    tm_escape(s->b);
    return lu_check(s);
}

static int lu_setup(tm_ctx *ctx)
{
    lu_state *s = calloc(1, sizeof *s);
    nb_rng r;
    int i, j, n;
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    s->a = nb_alloc(sizeof(double) * LU_N * LU_N, &s->raw[0]);
    s->seed = nb_alloc(sizeof(double) * LU_N * LU_N, &s->raw[1]);
    if (!s->a || !s->seed)
        return tm_fail(ctx, "out of memory");
    memset(s->seed, 0, sizeof(double) * LU_N * LU_N);
    nb_reset(&r);
    for (i = 0; i < LU_N; i++) {
        s->seed_b[i] = nb_abs_randwc(&r, 100) + 1;
        s->seed[i][i] = nb_abs_randwc(&r, 1000) + 1;
        s->exact[i] = s->seed_b[i] / s->seed[i][i];
    }
    for (n = 0; n < 8 * LU_N; n++) {
        int k = nb_abs_randwc(&r, LU_N), k1 = nb_abs_randwc(&r, LU_N);
        if (k == k1)
            continue;
        for (j = 0; j < LU_N; j++)
            s->seed[k][j] += k < k1 ? s->seed[k1][j] : -s->seed[k1][j];
        s->seed_b[k] += k < k1 ? s->seed_b[k1] : -s->seed_b[k1];
    }
    if (s->seed_b[0] != -3755 || s->seed_b[1] != -2848 || s->seed[0][0] != 1560 ||
        s->seed[0][1] != 922)
        return tm_fail(ctx, "lu: generated system differs from the reference workload");
    if (!lu_solve(s))
        return tm_fail(ctx, "lu: the solution differs from the exact one");
    return TM_OK;
}

static void lu_run(tm_ctx *ctx, uint64_t iters)
{
    lu_state *s = ctx->user;
    while (iters--) {
        if (!lu_solve(s)) {
            tm_fail(ctx, "lu: the solution differs from the exact one (relative error > 1e-9)");
            return;
        }
    }
}

static void lu_teardown(tm_ctx *ctx)
{
    lu_state *s = ctx->user;
    if (s)
        nb_release(ctx, s->raw, 2);
}

TM_BENCH(cpu_lu) = {
    .name = "cpu.lu",
    .summary = "nbench LU decomposition: solve one 101x101 linear system",
    .verifies = "the solution is the exact one to a relative 1e-9",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = lu_run,
    .setup = lu_setup,
    .teardown = lu_teardown,
};
