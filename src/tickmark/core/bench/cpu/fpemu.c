/* cpu.fpemu — nbench 2.2.3 "FP emulation": one iteration is one pass of software floating
 * point over 3000 operand pairs (752 adds, 752 subtracts, 935 multiplies, 561 divides), in the
 * reference's internal format (type, sign, 16-bit exponent, 64-bit mantissa in four 16-bit
 * words) with every shift done one bit at a time, shift-and-add multiply, restoring divide and
 * chop rounding to 61 bits.
 * Timed: the pass and a checksum of its 3000 results. Nothing is restored (a and b are never
 * written). Verified: in setup, every result of one pass is checked against hardware double
 * arithmetic and c[0] against the reference's bit pattern; every iteration, the checksum must
 * equal the one from setup. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_common.h"

#define FE_N 3000
#define FE_MINEXP (-32767)
#define FE_MAXEXP 32767

enum { FE_ZERO, FE_SUBNORMAL, FE_NORMAL, FE_INF, FE_NAN };

typedef struct fe_num {
    uint8_t type, sign;
    int16_t exp;
    uint16_t m[4]; /* most significant word first; value = 0.m * 2^exp */
} fe_num;

typedef struct fe_state {
    fe_num a[FE_N], b[FE_N], c[FE_N];
    uint64_t sum;
} fe_state;

/* ---- mantissa helpers: 16-bit pieces, explicit carries, one bit per shift ---- */
static unsigned fe_shl1(uint16_t *m, unsigned in)
{
    int i;
    for (i = 3; i >= 0; i--) {
        unsigned out = m[i] >> 15;
        m[i] = (uint16_t)((m[i] << 1) | in);
        in = out;
    }
    return in;
}

static unsigned fe_shr1(uint16_t *m, unsigned in)
{
    int i;
    for (i = 0; i < 4; i++) {
        unsigned out = m[i] & 1u;
        m[i] = (uint16_t)((m[i] >> 1) | (in << 15));
        in = out;
    }
    return in;
}

static int fe_iszero(const uint16_t *m) { return !(m[0] | m[1] | m[2] | m[3]); }

static void fe_sticky_shr(fe_num *x, int n)
{
    if (x->type == FE_ZERO)
        return;
    if (n >= 64) {
        int any = !fe_iszero(x->m);
        x->m[0] = x->m[1] = x->m[2] = 0;
        x->m[3] = (uint16_t)any;
        return;
    }
    while (n-- > 0)
        x->m[3] |= (uint16_t)fe_shr1(x->m, 0);
}

static void fe_normalize(fe_num *x, int *exp)
{
    if (fe_iszero(x->m))
        return;
    while (!(x->m[0] & 0x8000u)) {
        fe_shl1(x->m, 0);
        (*exp)--;
    }
}

/* Chop rounding; exponents below the range denormalise (no overflow to infinity). */
static void fe_round(fe_num *x, int exp)
{
    if (x->type == FE_NORMAL || x->type == FE_SUBNORMAL) {
        if (exp < FE_MINEXP) {
            fe_sticky_shr(x, FE_MINEXP - exp);
            exp = FE_MINEXP;
            x->type = fe_iszero(x->m) ? FE_ZERO : FE_SUBNORMAL;
        }
        if (exp > FE_MAXEXP)
            exp = FE_MAXEXP;
        x->m[3] &= 0xfff8u;
    }
    x->exp = (int16_t)exp;
}

static void fe_set_special(fe_num *z, int type, unsigned sign)
{
    memset(z, 0, sizeof *z);
    z->type = (uint8_t)type;
    z->sign = (uint8_t)sign;
    z->exp = FE_MINEXP;
    if (type == FE_NAN) {
        z->sign = 1;
        z->exp = FE_MAXEXP;
        z->m[0] = 0x4000u;
    }
}

static int fe_real(const fe_num *x) { return x->type == FE_NORMAL || x->type == FE_SUBNORMAL; }

static void fe_from_int(fe_num *z, int32_t n)
{
    uint32_t mag = n < 0 ? 0u - (uint32_t)n : (uint32_t)n;
    int exp = 32;
    if (!mag) {
        fe_set_special(z, FE_ZERO, 0);
        return;
    }
    z->type = FE_NORMAL;
    z->sign = n < 0;
    z->m[0] = (uint16_t)(mag >> 16);
    z->m[1] = (uint16_t)(mag & 0xffffu);
    z->m[2] = z->m[3] = 0;
    fe_normalize(z, &exp);
    z->exp = (int16_t)exp;
}

/* z = x + y (sub = 0) or x - y (sub = 1). */
static void fe_addsub(fe_num *z, const fe_num *x, const fe_num *y, unsigned sub)
{
    fe_num lx = *x, ly = *y;
    unsigned eff_sub = (x->sign ^ y->sign ^ sub) & 1u, carry = 0;
    int exp, i;
    if (!fe_real(x) || !fe_real(y)) {
        if (x->type == FE_NAN || y->type == FE_NAN)
            fe_set_special(z, FE_NAN, 1);
        else if (x->type == FE_INF && y->type == FE_INF)
            eff_sub ? fe_set_special(z, FE_NAN, 1) : (void)(*z = *x);
        else if (x->type == FE_INF || y->type == FE_ZERO)
            *z = *x;
        else {
            *z = *y;
            z->sign = (uint8_t)((y->sign ^ sub) & 1u);
        }
        return;
    }
    if (lx.exp < ly.exp) {
        fe_sticky_shr(&lx, ly.exp - lx.exp);
        lx.exp = ly.exp;
    } else if (ly.exp < lx.exp) {
        fe_sticky_shr(&ly, lx.exp - ly.exp);
        ly.exp = lx.exp;
    }
    z->type = FE_NORMAL;
    z->sign = x->sign;
    exp = lx.exp;
    if (!eff_sub) {
        for (i = 3; i >= 0; i--) {
            unsigned s = (unsigned)lx.m[i] + ly.m[i] + carry;
            z->m[i] = (uint16_t)s;
            carry = s >> 16;
        }
        if (carry) {
            fe_shr1(z->m, 1);
            exp++;
        }
    } else {
        for (i = 3; i >= 0; i--) {
            unsigned d = (unsigned)lx.m[i] - ly.m[i] - carry;
            z->m[i] = (uint16_t)d;
            carry = (d >> 16) & 1u;
        }
        if (carry) {
            unsigned borrow = 0;
            for (i = 3; i >= 0; i--) {
                unsigned d = 0u - z->m[i] - borrow;
                z->m[i] = (uint16_t)d;
                borrow = (d >> 16) & 1u;
            }
            z->sign = !x->sign;
        }
        if (fe_iszero(z->m)) {
            fe_set_special(z, FE_ZERO, 0);
            return;
        }
        fe_normalize(z, &exp);
    }
    fe_round(z, exp);
}

static void fe_mul(fe_num *z, const fe_num *x, const fe_num *y)
{
    uint16_t mult[4], ext[4] = {0, 0, 0, 0}, *prod = z->m;
    unsigned sign = (x->sign ^ y->sign) & 1u;
    int exp, step, i;
    if (!fe_real(x) || !fe_real(y)) {
        if (x->type == FE_NAN || y->type == FE_NAN ||
            (x->type == FE_INF && y->type == FE_ZERO) || (x->type == FE_ZERO && y->type == FE_INF))
            fe_set_special(z, FE_NAN, 1);
        else if (x->type == FE_INF || y->type == FE_INF)
            fe_set_special(z, FE_INF, sign);
        else
            fe_set_special(z, FE_ZERO, sign);
        return;
    }
    memcpy(mult, y->m, sizeof mult);
    exp = x->exp + y->exp;
    prod[0] = prod[1] = prod[2] = prod[3] = 0; /* the product accumulates in the result */
    for (step = 0; step < 64; step++) {
        unsigned carry = 0;
        if (fe_shr1(mult, 0)) {
            for (i = 3; i >= 0; i--) {
                unsigned s = (unsigned)prod[i] + x->m[i] + carry;
                prod[i] = (uint16_t)s;
                carry = s >> 16;
            }
        }
        fe_shr1(ext, fe_shr1(prod, carry));
    }
    while (!(prod[0] & 0x8000u) && !(fe_iszero(prod) && fe_iszero(ext))) {
        fe_shl1(prod, fe_shl1(ext, 0));
        exp--;
    }
    if (fe_iszero(ext)) /* the reference's sticky bit, inverted as it is there */
        prod[3] |= 1u;
    z->type = FE_NORMAL;
    z->sign = (uint8_t)sign;
    fe_round(z, exp);
}

static int fe_ge(const uint16_t *a, const uint16_t *b)
{
    int i;
    for (i = 0; i < 4; i++)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 1;
}

static void fe_div(fe_num *z, const fe_num *x, const fe_num *y)
{
    uint16_t dvd[4], rem[4] = {0, 0, 0, 0}, *quot = z->m;
    unsigned sign = (x->sign ^ y->sign) & 1u;
    int exp, i;
    if (!fe_real(x) || !fe_real(y) || fe_iszero(y->m)) {
        if (x->type == FE_NAN || y->type == FE_NAN || (x->type == FE_INF && y->type == FE_INF) ||
            (!fe_real(x) && x->type == FE_ZERO && (y->type == FE_ZERO || fe_iszero(y->m))))
            fe_set_special(z, FE_NAN, 1);
        else if (x->type == FE_INF || y->type == FE_ZERO || fe_iszero(y->m))
            fe_set_special(z, FE_INF, sign);
        else
            fe_set_special(z, FE_ZERO, sign);
        return;
    }
    memcpy(dvd, x->m, sizeof dvd);
    exp = x->exp - y->exp + 128;
    quot[0] = quot[1] = quot[2] = quot[3] = 0; /* the quotient builds up in the result */
    while (!(quot[0] & 0x8000u)) {
        unsigned ovf = fe_shl1(rem, fe_shl1(dvd, 0));
        if (ovf || fe_ge(rem, y->m)) {
            unsigned borrow = 0;
            for (i = 3; i >= 0; i--) {
                unsigned d = (unsigned)rem[i] - y->m[i] - borrow;
                rem[i] = (uint16_t)d;
                borrow = (d >> 16) & 1u;
            }
            fe_shl1(quot, 1);
        } else {
            fe_shl1(quot, 0);
        }
        exp--;
    }
    z->type = FE_NORMAL;
    z->sign = (uint8_t)sign;
    fe_round(z, exp);
}

static void fe_pass(fe_state *s)
{
    int i;
    for (i = 0; i < FE_N; i++) {
        switch (i % 16) {
        case 0: case 1: case 2: case 3:
            fe_addsub(&s->c[i], &s->a[i], &s->b[i], 0);
            break;
        case 4: case 5: case 6: case 7:
            fe_addsub(&s->c[i], &s->a[i], &s->b[i], 1);
            break;
        case 8: case 9: case 10: case 11: case 12:
            fe_mul(&s->c[i], &s->a[i], &s->b[i]);
            break;
        default:
            fe_div(&s->c[i], &s->a[i], &s->b[i]);
            break;
        }
    }
}

static uint64_t fe_checksum(const fe_num *c)
{
    uint64_t h = 0;
    int i;
    for (i = 0; i < FE_N; i++) {
        uint64_t w = ((uint64_t)c[i].m[0] << 48) | ((uint64_t)c[i].m[1] << 32) |
                     ((uint64_t)c[i].m[2] << 16) | c[i].m[3];
        h = (h ^ w ^ ((uint64_t)(uint16_t)c[i].exp << 8) ^ ((uint64_t)c[i].sign << 4) ^ c[i].type) *
            0x100000001b3ull;
    }
    return h;
}

/* 2^e, exactly: products of powers of two are exact in binary. The check must not lean on the C
 * library's ldexp: NuttX's own math library computes it as x * exp(n * ln 2), off in the last
 * bits for nearly every n (by 2e-13 at 2^-80), which is past the check's tolerance. */
static double fe_pow2(int e)
{
    double r = 1.0, f = e < 0 ? 0.5 : 2.0;
    unsigned n = e < 0 ? 0u - (unsigned)e : (unsigned)e;
    for (; n; n >>= 1) {
        if (n & 1u)
            r *= f;
        if (n > 1u)
            f *= f;
    }
    return r;
}

static double fe_to_double(const fe_num *x)
{
    double m = (double)x->m[0] * 281474976710656.0 + (double)x->m[1] * 4294967296.0 +
               (double)x->m[2] * 65536.0 + (double)x->m[3];
    double v = fe_iszero(x->m) ? 0.0 : m * fe_pow2(x->exp - 64);
    return x->sign ? -v : v;
}

static int fe_setup(tm_ctx *ctx)
{
    fe_state *s = calloc(1, sizeof *s);
    nb_rng r;
    int i;
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    nb_reset(&r);
    for (i = 0; i < FE_N; i++) {
        fe_num n, d1, d2;
        int32_t vn = nb_randwc(&r, 50000), v1 = nb_randwc(&r, 50000) + 1;
        int32_t v2 = nb_randwc(&r, 50000) + 1;
        fe_from_int(&n, vn);
        fe_from_int(&d1, v1);
        fe_from_int(&d2, v2);
        fe_div(&s->a[i], &n, &d1);
        fe_div(&s->b[i], &n, &d2);
        if (s->a[i].type != FE_NORMAL || s->b[i].type != FE_NORMAL)
            return tm_fail(ctx, "fpemu: generated operands differ from the reference workload");
        if (fabs(fe_to_double(&s->a[i]) - (double)vn / v1) > 1e-15 * fabs((double)vn / v1))
            return tm_fail(ctx, "fpemu: emulated divide of operand %d is wrong", i);
    }
    fe_pass(s);
    for (i = 0; i < FE_N; i++) {
        double x = fe_to_double(&s->a[i]), y = fe_to_double(&s->b[i]), want, tol;
        double got = fe_to_double(&s->c[i]);
        switch (i % 16) {
        case 0: case 1: case 2: case 3: want = x + y; tol = fabs(x) + fabs(y); break;
        case 4: case 5: case 6: case 7: want = x - y; tol = fabs(x) + fabs(y); break;
        case 8: case 9: case 10: case 11: case 12: want = x * y; tol = fabs(want); break;
        default: want = x / y; tol = fabs(want); break;
        }
        if (s->c[i].type != FE_NORMAL || fabs(got - want) > tol * 1e-15)
            return tm_fail(ctx, "fpemu: result %d is %.17g, expected %.17g", i, got, want);
    }
    if (s->c[0].sign || s->c[0].exp != 10 || s->c[0].m[0] != 0xB304u || s->c[0].m[1] != 0xC881u ||
        s->c[0].m[2] != 0xA25Au || s->c[0].m[3] != 0x3508u)
        return tm_fail(ctx, "fpemu: first result differs from the reference bit pattern");
    s->sum = fe_checksum(s->c);
    return TM_OK;
}

static void fe_run(tm_ctx *ctx, uint64_t iters)
{
    fe_state *s = ctx->user;
    while (iters--) {
        memset(s->c, 0, sizeof s->c);
        tm_escape(s);
        fe_pass(s);
        tm_escape(s);
        if (fe_checksum(s->c) != s->sum) {
            tm_fail(ctx, "fpemu: results differ from the verified pass");
            return;
        }
    }
}

static void fe_teardown(tm_ctx *ctx)
{
    free(ctx->user);
    ctx->user = NULL;
}

TM_BENCH(cpu_fpemu) = {
    .name = "cpu.fpemu",
    .summary = "nbench FP emulation: one pass of 3000 software-float operations",
    .verifies = "the emulated results equal hardware double arithmetic",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = fe_run,
    .setup = fe_setup,
    .teardown = fe_teardown,
};
