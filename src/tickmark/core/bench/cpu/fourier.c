/* cpu.fourier — nbench 2.2.3 "Fourier coefficients": one iteration computes the first 100
 * Fourier coefficient pairs of f(x) = (x+1)^x on [0, 2] (A0 and A1..A99, B1..B99: 199
 * coefficients; nbench counts coefficients, so its figure is iterations/s x 199), each by the
 * reference's 200-evaluation trapezoid rule (which skips the sample at x = 1.99): 39,800 pow,
 * 19,800 cos and 19,800 sin calls.
 * Timed: the computation and a comparison of the 199 results with the verified set; nothing is
 * restored. Verified: in setup against published coefficient values, every iteration against
 * the setup result. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "nb_common.h"

#define FO_N 100

typedef struct fo_state {
    double a[FO_N], b[FO_N], ra[FO_N], rb[FO_N];
} fo_state;

static double fo_f(double x, double w, int which)
{
    double v = pow(x + 1.0, x);
    if (which == 1)
        return v * cos(w * x);
    if (which == 2)
        return v * sin(w * x);
    return v;
}

/* 200 steps of dx = (x1 - x0) / 200, but only 198 interior samples (the reference's count). */
static double fo_trapezoid(double x0, double x1, double w, int which)
{
    int steps = 200;
    double dx = (x1 - x0) / (double)steps;
    double sum = fo_f(x0, w, which) / 2.0;
    for (steps -= 2; steps > 0; steps--) {
        x0 += dx;
        sum += fo_f(x0, w, which);
    }
    return (sum + fo_f(x1, w, which) / 2.0) * dx;
}

static void fo_compute(fo_state *s, double x1)
{
    const double omega = 3.1415926535897932;
    int n;
    s->a[0] = fo_trapezoid(0.0, x1, 0.0, 0) / 2.0;
    s->b[0] = 0.0;
    for (n = 1; n < FO_N; n++) {
        s->a[n] = fo_trapezoid(0.0, x1, omega * (double)n, 1);
        s->b[n] = fo_trapezoid(0.0, x1, omega * (double)n, 2);
    }
}

static int fo_near(double got, double want, double rel)
{
    return fabs(got - want) <= rel * fabs(want);
}

static int fo_setup(tm_ctx *ctx)
{
    fo_state *s = calloc(1, sizeof *s);
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    fo_compute(s, 2.0);
    if (!fo_near(s->a[0], 2.837770756, 1e-9) || !fo_near(s->a[1], 1.045784473, 1e-9) ||
        !fo_near(s->b[1], -1.879103262, 1e-9) || !fo_near(s->a[2], 0.2741002242, 1e-9) ||
        !fo_near(s->b[2], -1.158835123, 1e-9) || !fo_near(s->a[4], 0.01023218037, 1e-8) ||
        !fo_near(s->b[4], -0.6099867087, 1e-9))
        return tm_fail(ctx, "fourier: coefficients differ from the published values");
    for (int n = 0; n < FO_N; n++) {
        s->ra[n] = s->a[n];
        s->rb[n] = s->b[n];
    }
    return TM_OK;
}

static void fo_run(tm_ctx *ctx, uint64_t iters)
{
    fo_state *s = ctx->user;
    int n;
    while (iters--) {
        /* the interval end through an opaque value: the work cannot be hoisted or folded */
        fo_compute(s, 2.0 * (double)tm_opaque(1));
        for (n = 0; n < FO_N; n++) {
            if (!fo_near(s->a[n], s->ra[n], 1e-12) || !fo_near(s->b[n], s->rb[n], 1e-12)) {
                tm_fail(ctx, "fourier: coefficient %d differs from the verified value", n);
                return;
            }
        }
    }
}

static void fo_teardown(tm_ctx *ctx)
{
    free(ctx->user);
    ctx->user = NULL;
}

TM_BENCH(cpu_fourier) = {
    .name = "cpu.fourier",
    .summary = "nbench Fourier: 199 Fourier coefficients of (x+1)^x by trapezoid integration",
    .verifies = "the coefficients equal the published values",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = fo_run,
    .setup = fo_setup,
    .teardown = fo_teardown,
};
