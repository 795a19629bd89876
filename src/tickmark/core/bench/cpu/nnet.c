/* cpu.nnet — nbench 2.2.3 "neural net": one iteration (one nbench loop, after the generator
 * reset the reference does before each timed iteration) draws fresh weights and trains a
 * 35-8-8 back-propagation network (sigmoid units, no bias, learning rate and momentum 0.09) on
 * the first 10 patterns of the reference's data (5x7 glyphs of the letters A-J, inputs mapped
 * 1 -> 0.9, 0 -> 0.1, targets their 8-bit ASCII codes) until every output error of a pass is
 * below 0.1. The patterns are built in (the reference reads them from NNET.DAT).
 * Timed: the reset, weight draw, training and verification. Verified every iteration: the pass
 * count equals the one found in setup (780 with glibc's exp) and the trained network gets every
 * output bit of all 10 patterns right. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_common.h"

#define NN_IN 35
#define NN_MID 8
#define NN_OUT 8
#define NN_PATS 10
#define NN_RATE 0.09
#define NN_ALPHA 0.09
#define NN_STOP 0.1

typedef struct nn_state {
    double in[NN_PATS][NN_IN], target[NN_PATS][NN_OUT];
    double mw[NN_MID][NN_IN], ow[NN_OUT][NN_MID];
    double mchg[NN_MID][NN_IN], ochg[NN_OUT][NN_MID]; /* previous step (momentum) */
    double mcum[NN_MID][NN_IN], ocum[NN_OUT][NN_MID]; /* this step */
    double mid[NN_MID], out[NN_OUT], oerr[NN_OUT], merr[NN_MID];
    long passes;
} nn_state;

/* Glyph rows (5 bits each, top row first, leftmost column = most significant) of A..J. */
static const unsigned char nn_glyphs[NN_PATS][7] = {
    {0x04, 0x0a, 0x11, 0x11, 0x1f, 0x11, 0x11}, {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e},
    {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e}, {0x1e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1e},
    {0x1f, 0x10, 0x10, 0x1c, 0x10, 0x10, 0x1f}, {0x1f, 0x10, 0x10, 0x1c, 0x10, 0x10, 0x10},
    {0x0e, 0x11, 0x10, 0x10, 0x13, 0x11, 0x0e}, {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11},
    {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}, {0x01, 0x01, 0x01, 0x01, 0x11, 0x11, 0x0e}};

static double nn_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static void nn_forward(nn_state *s, int p)
{
    int i, j;
    for (j = 0; j < NN_MID; j++) {
        double sum = 0.0;
        for (i = 0; i < NN_IN; i++)
            sum += s->mw[j][i] * s->in[p][i];
        s->mid[j] = nn_sigmoid(sum);
    }
    for (j = 0; j < NN_OUT; j++) {
        double sum = 0.0;
        for (i = 0; i < NN_MID; i++)
            sum += s->ow[j][i] * s->mid[i];
        s->out[j] = nn_sigmoid(sum);
    }
}

/* Weights from the generator, then train to convergence; returns the number of passes. */
static long nn_train(nn_state *s, nb_rng *r)
{
    int i, j, k, p;
    long passes = 0;
    double worst[NN_PATS], all;
    for (j = 0; j < NN_MID; j++)
        for (i = 0; i < NN_IN; i++)
            s->mw[j][i] = ((double)nb_abs_randwc(r, 100000) / 100000.0 - 0.5) / 2.0;
    for (j = 0; j < NN_OUT; j++)
        for (i = 0; i < NN_MID; i++)
            s->ow[j][i] = ((double)nb_abs_randwc(r, 100000) / 10000.0 - 0.5) / 2.0;
    memset(s->mchg, 0, sizeof s->mchg);
    memset(s->ochg, 0, sizeof s->ochg);
    memset(s->mcum, 0, sizeof s->mcum);
    memset(s->ocum, 0, sizeof s->ocum);
    do {
        for (p = 0; p < NN_PATS; p++) {
            memcpy(s->mchg, s->mcum, sizeof s->mchg);
            memcpy(s->ochg, s->ocum, sizeof s->ochg);
            memset(s->mcum, 0, sizeof s->mcum);
            memset(s->ocum, 0, sizeof s->ocum);
            nn_forward(s, p);
            worst[p] = 0.0;
            for (k = 0; k < NN_OUT; k++) {
                s->oerr[k] = s->target[p][k] - s->out[k];
                if (fabs(s->oerr[k]) > worst[p])
                    worst[p] = fabs(s->oerr[k]);
            }
            for (j = 0; j < NN_MID; j++) {
                double sum = 0.0;
                for (k = 0; k < NN_OUT; k++)
                    sum += s->ow[k][j] * s->oerr[k];
                s->merr[j] = s->mid[j] * (1.0 - s->mid[j]) * sum;
            }
            for (k = 0; k < NN_OUT; k++)
                for (j = 0; j < NN_MID; j++) {
                    double d = NN_RATE * s->oerr[k] * s->mid[j] + NN_ALPHA * s->ochg[k][j];
                    s->ow[k][j] += d;
                    s->ocum[k][j] += d;
                }
            for (j = 0; j < NN_MID; j++)
                for (i = 0; i < NN_IN; i++) {
                    double d = NN_RATE * s->merr[j] * s->in[p][i] + NN_ALPHA * s->mchg[j][i];
                    s->mw[j][i] += d;
                    s->mcum[j][i] += d;
                }
        }
        passes++;
        for (all = 0.0, p = 0; p < NN_PATS; p++)
            if (worst[p] > all)
                all = worst[p];
    } while (all >= NN_STOP && passes < 1000000);
    return passes;
}

static int nn_recalls(nn_state *s)
{
    int p, k;
    for (p = 0; p < NN_PATS; p++) {
        nn_forward(s, p);
        for (k = 0; k < NN_OUT; k++)
            if (fabs(s->target[p][k] - s->out[k]) >= 0.5)
                return 0;
    }
    return 1;
}

static int nn_setup(tm_ctx *ctx)
{
    nn_state *s = calloc(1, sizeof *s);
    nb_rng r;
    int p, i;
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    for (p = 0; p < NN_PATS; p++) {
        for (i = 0; i < NN_IN; i++)
            s->in[p][i] = (nn_glyphs[p][i / 5] >> (4 - i % 5)) & 1u ? 0.9 : 0.1;
        for (i = 0; i < NN_OUT; i++)
            s->target[p][i] = (double)((('A' + p) >> (7 - i)) & 1);
    }
    nb_reset(&r);
    s->passes = nn_train(s, &r);
    if (s->passes >= 1000000 || !nn_recalls(s))
        return tm_fail(ctx, "nnet: the network did not learn the patterns");
    return TM_OK;
}

static void nn_run(tm_ctx *ctx, uint64_t iters)
{
    nn_state *s = ctx->user;
    while (iters--) {
        nb_rng r;
        long passes;
        nb_reset(&r);
        tm_escape(s);
        passes = nn_train(s, &r);
        tm_escape(s);
        if (passes != s->passes || !nn_recalls(s)) {
            tm_fail(ctx, "nnet: training took %ld passes (expected %ld) or did not converge",
                    passes, s->passes);
            return;
        }
    }
}

static void nn_teardown(tm_ctx *ctx)
{
    free(ctx->user);
    ctx->user = NULL;
}

TM_BENCH(cpu_nnet) = {
    .name = "cpu.nnet",
    .summary = "nbench neural net: train a 35-8-8 back-propagation net to convergence",
    .verifies = "the trained network classifies every pattern",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = nn_run,
    .setup = nn_setup,
    .teardown = nn_teardown,
};
