/* cpu.bitfield — nbench 2.2.3 "bitfield": one iteration applies the reference's 30 bit-run
 * operations (set, clear, complement in turn) to a 1 Mbit bitmap, one bit at a time; it is
 * 2,258,842 single-bit operations (nbench counts bits: its figure is iterations/s x 2258842).
 * Timed: restoring the touched first 32 KiB of the bitmap to the 0x55.. pattern (the reference
 * refills all 128 KiB untimed) and the operations. Verified every iteration: the touched region
 * must equal the result of an independent word-at-a-time implementation computed in setup. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_common.h"

#define BF_BITS 1048576ul
#define BF_SPAN 262140ul /* operations touch bits [0, BF_SPAN) */
#define BF_OPS 30
#define BF_WBITS (sizeof(unsigned long) * 8u)
#define BF_WORDS (BF_BITS / BF_WBITS)
#define BF_TOUCHED ((BF_SPAN + BF_WBITS - 1) / BF_WBITS)
#define BF_PATTERN (~0ul / 3u) /* 0x5555...: bits 0, 2, 4, ... set */

typedef struct bf_state {
    void *raw[2];
    unsigned long *map, *expect;
    unsigned long off[BF_OPS], len[BF_OPS];
} bf_state;

/* Set (val 1) or clear (val 0) a run, one bit at a time, testing val for every bit as the
 * reference's routine does (that test is part of its per-bit cost at -O2). */
static void bf_setclear(unsigned long *map, unsigned long b, unsigned long n, int val)
{
    while (n--) {
        unsigned long mask = 1ul << (b % BF_WBITS);
        if (val)
            map[b / BF_WBITS] |= mask;
        else
            map[b / BF_WBITS] &= ~mask;
        b++;
    }
}

static void bf_flip(unsigned long *map, unsigned long b, unsigned long n)
{
    while (n--) {
        map[b / BF_WBITS] ^= 1ul << (b % BF_WBITS);
        b++;
    }
}

static void bf_apply(unsigned long *map, const unsigned long *off, const unsigned long *len)
{
    int j;
    for (j = 0; j < BF_OPS; j++) {
        if (j % 3 == 2)
            bf_flip(map, off[j], len[j]);
        else
            bf_setclear(map, off[j], len[j], j % 3 == 0);
    }
}

/* Independent reference: whole words with range masks. */
static void bf_apply_words(unsigned long *map, const unsigned long *off, const unsigned long *len)
{
    int j;
    for (j = 0; j < BF_OPS; j++) {
        unsigned long b = off[j], e = off[j] + len[j];
        while (b < e) {
            unsigned long w = b / BF_WBITS, lo = b % BF_WBITS;
            unsigned long n = BF_WBITS - lo < e - b ? BF_WBITS - lo : e - b;
            unsigned long mask = (n == BF_WBITS ? ~0ul : ((1ul << n) - 1)) << lo;
            if (j % 3 == 0)
                map[w] |= mask;
            else if (j % 3 == 1)
                map[w] &= ~mask;
            else
                map[w] ^= mask;
            b += n;
        }
    }
}

static unsigned long bf_popcount(const unsigned long *m, size_t words)
{
    unsigned long c = 0;
    size_t i;
    for (i = 0; i < words; i++) {
        unsigned long x = m[i];
        while (x) {
            x &= x - 1;
            c++;
        }
    }
    return c;
}

static int bf_setup(tm_ctx *ctx)
{
    bf_state *s = calloc(1, sizeof *s);
    nb_rng r;
    unsigned long total = 0;
    size_t i;
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    s->map = nb_alloc(BF_WORDS * sizeof(unsigned long), &s->raw[0]);
    s->expect = nb_alloc(BF_WORDS * sizeof(unsigned long), &s->raw[1]);
    if (!s->map || !s->expect)
        return tm_fail(ctx, "out of memory");
    for (i = 0; i < BF_WORDS; i++)
        s->map[i] = s->expect[i] = BF_PATTERN;
    nb_reset(&r);
    for (i = 0; i < BF_OPS; i++) {
        s->off[i] = (unsigned long)nb_abs_randwc(&r, (int32_t)BF_SPAN);
        s->len[i] = (unsigned long)nb_abs_randwc(&r, (int32_t)(BF_SPAN - s->off[i]));
        total += s->len[i];
    }
    if (s->off[0] != 252905 || s->len[0] != 4649 || total != 2258842)
        return tm_fail(ctx, "bitfield: generated operations differ from the reference workload");
    bf_apply_words(s->expect, s->off, s->len);
    if (bf_popcount(s->expect, BF_WORDS) != 540253)
        return tm_fail(ctx, "bitfield: reference bitmap has the wrong number of set bits");
    return TM_OK;
}

static void bf_run(tm_ctx *ctx, uint64_t iters)
{
    bf_state *s = ctx->user;
    size_t i;
    while (iters--) {
        for (i = 0; i < BF_TOUCHED; i++)
            s->map[i] = BF_PATTERN;
        tm_escape(s->map);
        bf_apply(s->map, s->off, s->len);
        tm_escape(s->map);
        if (memcmp(s->map, s->expect, BF_TOUCHED * sizeof(unsigned long)) != 0) {
            tm_fail(ctx, "bitfield: bitmap differs from the word-wise reference");
            return;
        }
    }
}

static void bf_teardown(tm_ctx *ctx)
{
    bf_state *s = ctx->user;
    if (s)
        nb_release(ctx, s->raw, 2);
}

TM_BENCH(cpu_bitfield) = {
    .name = "cpu.bitfield",
    .summary = "nbench bitfield: 30 bit-run set/clear/flip operations, bit by bit (2258842 bits)",
    .verifies = "the bitmap equals a word-at-a-time reference",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = bf_run,
    .setup = bf_setup,
    .teardown = bf_teardown,
};
