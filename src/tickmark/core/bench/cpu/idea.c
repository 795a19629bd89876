/* cpu.idea — nbench 2.2.3 "IDEA": one iteration (one nbench loop) encrypts a 4000-byte
 * plaintext (500 blocks of 8 bytes, read as four 16-bit words in host byte order) with IDEA
 * (8 rounds + output transform, 52 subkeys, multiplication modulo 65537 with 0 taken as 2^16),
 * then decrypts the ciphertext into a third buffer. Key, subkeys and plaintext come from the
 * benchmark generator once, in setup (untimed, as in the reference).
 * Timed: encryption, decryption and the verification. Verified every iteration: the decrypted
 * text equals the plaintext and the ciphertext equals the one from setup (whose first bytes and
 * subkeys are checked against published values). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_common.h"

#define ID_BYTES 4000
#define ID_KEYS 52

typedef struct id_state {
    void *raw[4];
    unsigned char *plain, *crypt, *plain2, *crypt_ref;
    uint16_t ek[ID_KEYS], dk[ID_KEYS];
} id_state;

static uint16_t id_mul(uint16_t a, uint16_t b)
{
    if (a) {
        if (b) {
            uint32_t p = (uint32_t)a * b;
            uint16_t lo = (uint16_t)p, hi = (uint16_t)(p >> 16);
            return (uint16_t)(lo - hi + (lo < hi));
        }
        return (uint16_t)(1u - a);
    }
    return (uint16_t)(1u - b);
}

/* Multiplicative inverse modulo 65537 (0 and 1 are their own inverses). */
static uint16_t id_inv(uint16_t x)
{
    int32_t t0 = 0, t1 = 1, r0 = 65537, r1 = x;
    if (x <= 1)
        return x;
    while (r1 != 0) {
        int32_t q = r0 / r1, t;
        t = r0 - q * r1;
        r0 = r1;
        r1 = t;
        t = t0 - q * t1;
        t0 = t1;
        t1 = t;
    }
    if (t0 < 0)
        t0 += 65537;
    return (uint16_t)t0;
}

/* Encryption subkeys: the 128-bit key, rotated left by 25 bits after each group of 8 words. */
static void id_expand(const uint16_t user[8], uint16_t *ek)
{
    uint16_t k[8], n[8];
    int idx = 0, w;
    memcpy(k, user, sizeof k);
    for (;;) {
        for (w = 0; w < 8; w++) {
            if (idx == ID_KEYS)
                return;
            ek[idx++] = k[w];
        }
        for (w = 0; w < 8; w++)
            n[w] = (uint16_t)((k[(w + 1) & 7] << 9) | (k[(w + 2) & 7] >> 7));
        memcpy(k, n, sizeof k);
    }
}

/* Decryption subkeys: rounds in reverse order, inverses of the multiplicative keys, negations of
 * the additive ones (the two additive keys of the inner rounds swap places). */
static void id_invert(const uint16_t *ek, uint16_t *dk)
{
    int r;
    for (r = 0; r <= 8; r++) {
        const uint16_t *e = ek + 6 * (8 - r); /* encryption group used at step r of decryption */
        uint16_t *d = dk + 6 * r;
        int inner = r > 0 && r < 8;
        d[0] = id_inv(e[0]);
        d[1] = (uint16_t)(0u - e[inner ? 2 : 1]);
        d[2] = (uint16_t)(0u - e[inner ? 1 : 2]);
        d[3] = id_inv(e[3]);
        if (r < 8) {
            d[4] = ek[6 * (7 - r) + 4];
            d[5] = ek[6 * (7 - r) + 5];
        }
    }
}

static void id_crypt(const unsigned char *in, unsigned char *out, const uint16_t *key)
{
    size_t blk;
    for (blk = 0; blk < ID_BYTES; blk += 8) {
        uint16_t x[4], x1, x2, x3, x4, t1, t2;
        const uint16_t *z = key;
        int r;
        memcpy(x, in + blk, 8);
        x1 = x[0];
        x2 = x[1];
        x3 = x[2];
        x4 = x[3];
        for (r = 0; r < 8; r++, z += 6) {
            x1 = id_mul(x1, z[0]);
            x2 = (uint16_t)(x2 + z[1]);
            x3 = (uint16_t)(x3 + z[2]);
            x4 = id_mul(x4, z[3]);
            t2 = id_mul(x1 ^ x3, z[4]);
            t1 = id_mul((uint16_t)(t2 + (x2 ^ x4)), z[5]);
            t2 = (uint16_t)(t1 + t2);
            x1 ^= t1;
            x4 ^= t2;
            t2 ^= x2;
            x2 = x3 ^ t1;
            x3 = t2;
        }
        x[0] = id_mul(x1, z[0]);
        x[1] = (uint16_t)(x3 + z[1]);
        x[2] = (uint16_t)(x2 + z[2]);
        x[3] = id_mul(x4, z[3]);
        memcpy(out + blk, x, 8);
    }
}

static int id_setup(tm_ctx *ctx)
{
    static const unsigned char first[8] = {131, 99, 71, 69, 212, 99, 48, 82};
    id_state *s = calloc(1, sizeof *s);
    uint16_t user[8];
    nb_rng r;
    int i;
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    s->plain = nb_alloc(ID_BYTES, &s->raw[0]);
    s->crypt = nb_alloc(ID_BYTES, &s->raw[1]);
    s->plain2 = nb_alloc(ID_BYTES, &s->raw[2]);
    s->crypt_ref = nb_alloc(ID_BYTES, &s->raw[3]);
    if (!s->plain || !s->crypt || !s->plain2 || !s->crypt_ref)
        return tm_fail(ctx, "out of memory");
    nb_reset(&r);
    for (i = 0; i < 8; i++)
        user[i] = (uint16_t)nb_abs_randwc(&r, 60000);
    for (i = 0; i < ID_BYTES; i++)
        s->plain[i] = (unsigned char)nb_abs_randwc(&r, 255);
    id_expand(user, s->ek);
    id_invert(s->ek, s->dk);
    if (user[0] != 35045 || s->plain[0] != 7 || s->ek[8] != 3740 || s->ek[12] != 4882 ||
        s->ek[51] != 59937)
        return tm_fail(ctx, "idea: key schedule differs from the reference workload");
    id_crypt(s->plain, s->crypt_ref, s->ek);
    id_crypt(s->crypt_ref, s->plain2, s->dk);
    if (memcmp(s->plain2, s->plain, ID_BYTES) != 0)
        return tm_fail(ctx, "idea: decryption does not restore the plaintext");
    {
        uint16_t w[4];
        unsigned char le[8];
        memcpy(w, s->crypt_ref, 8);
        for (i = 0; i < 4; i++) {
            le[2 * i] = (unsigned char)(w[i] & 0xff);
            le[2 * i + 1] = (unsigned char)(w[i] >> 8);
        }
        if (memcmp(le, first, 8) != 0)
            return tm_fail(ctx, "idea: ciphertext differs from the reference");
    }
    return TM_OK;
}

static void id_run(tm_ctx *ctx, uint64_t iters)
{
    id_state *s = ctx->user;
    while (iters--) {
        tm_escape(s->plain);
        id_crypt(s->plain, s->crypt, s->ek);
        id_crypt(s->crypt, s->plain2, s->dk);
        tm_escape(s->plain2);
        if (memcmp(s->plain2, s->plain, ID_BYTES) != 0 ||
            memcmp(s->crypt, s->crypt_ref, ID_BYTES) != 0) {
            tm_fail(ctx, "idea: decrypt(encrypt(plaintext)) differs from the plaintext");
            return;
        }
        memset(s->plain2, 0, 8); /* a stale result cannot pass the next check */
    }
}

static void id_teardown(tm_ctx *ctx)
{
    id_state *s = ctx->user;
    if (s)
        nb_release(ctx, s->raw, 4);
}

TM_BENCH(cpu_idea) = {
    .name = "cpu.idea",
    .summary = "nbench IDEA: encrypt and decrypt 4000 bytes (500 blocks each way)",
    .verifies = "decryption restores the plaintext; the ciphertext is the reference's",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = id_run,
    .setup = id_setup,
    .teardown = id_teardown,
};
