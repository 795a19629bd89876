/* cpu.huffman — nbench 2.2.3 "Huffman": one iteration (one nbench loop) counts the byte
 * frequencies of a 5000-byte generated text, builds the Huffman tree with the reference's
 * O(n^2) lowest-pair search (single-precision frequencies, 512 nodes), compresses the text bit
 * by bit (21,354 bits) and decompresses it. The text is built once in setup (untimed, as in the
 * reference).
 * Timed: the four steps and the verification. Verified every iteration: the decompressed text
 * equals the original and the bit count equals the one from setup. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_common.h"

#define HU_LEN 5000
#define HU_NODES 512
#define HU_NONE (-1)
#define HU_EXCLUDED (-2)

typedef struct hu_node {
    float freq;
    int parent, left, right;
} hu_node;

typedef struct hu_state {
    void *raw[3];
    unsigned char *text, *comp, *out;
    hu_node tree[HU_NODES];
    long bits;
} hu_state;

static const char *const hu_words[50] = {
    "Hello", "He", "Him", "the", "this", "that", "though", "rough", "cough", "obviously",
    "But", "but", "bye", "begin", "beginning", "beginnings", "of", "our", "ourselves",
    "yourselves", "to", "together", "togetherness", "from", "either", "I", "A", "return",
    "However", "that", "example", "yet", "quickly", "all", "if", "were", "includes", "always",
    "never", "not", "small", "returns", "set", "basic", "Entered", "with", "used", "shown",
    "you", "know"};

/* Returns the number of bits written; decompressed bytes go to s->out. */
static long hu_loop(hu_state *s)
{
    hu_node *t = s->tree;
    long nbits = 0, bit, n;
    int i, root = 255;
    for (i = 0; i < 256; i++)
        t[i].freq = 0.0f;
    for (i = 0; i < HU_LEN; i++)
        t[s->text[i]].freq += 1.0f;
    for (i = 0; i < 256; i++)
        if (t[i].freq != 0.0f)
            t[i].freq /= (float)HU_LEN;
    for (i = 256; i < HU_NODES; i++)
        t[i].freq = 0.0f;
    for (i = 0; i < HU_NODES; i++) {
        if (t[i].freq == 0.0f) {
            t[i].parent = HU_EXCLUDED;
        } else {
            t[i].parent = t[i].left = t[i].right = HU_NONE;
        }
    }
    for (;;) {
        int lo1 = HU_NONE, lo2 = HU_NONE;
        for (i = 0; i <= root; i++)
            if (t[i].parent == HU_NONE && (lo1 == HU_NONE || t[i].freq < t[lo1].freq))
                lo1 = i;
        for (i = 0; i <= root; i++)
            if (i != lo1 && t[i].parent == HU_NONE && (lo2 == HU_NONE || t[i].freq < t[lo2].freq))
                lo2 = i;
        if (lo1 == HU_NONE || lo2 == HU_NONE)
            break;
        root++;
        t[root].freq = t[lo1].freq + t[lo2].freq;
        t[root].left = lo1;
        t[root].right = lo2;
        t[root].parent = HU_NONE;
        t[lo1].parent = t[lo2].parent = root;
    }
    /* compress: leaf-to-root path, written root first, bit k at byte k/8, LSB first */
    for (i = 0; i < HU_LEN; i++) {
        unsigned char path[HU_NODES];
        int depth = 0, node = s->text[i];
        while (t[node].parent != HU_NONE) {
            int p = t[node].parent;
            path[depth++] = (unsigned char)(t[p].left != node);
            node = p;
        }
        while (depth > 0) {
            unsigned char mask = (unsigned char)(1u << (nbits & 7));
            if (path[--depth])
                s->comp[nbits >> 3] |= mask;
            else
                s->comp[nbits >> 3] &= (unsigned char)~mask;
            nbits++;
        }
    }
    /* decompress */
    for (bit = 0, n = 0; bit < nbits && n < HU_LEN; n++) {
        int node = root;
        while (t[node].left != HU_NONE) {
            node = (s->comp[bit >> 3] >> (bit & 7)) & 1u ? t[node].right : t[node].left;
            bit++;
        }
        s->out[n] = (unsigned char)node;
    }
    return n == HU_LEN ? nbits : -1;
}

static int hu_setup(tm_ctx *ctx)
{
    hu_state *s = calloc(1, sizeof *s);
    nb_rng r;
    size_t pos = 0;
    int lines = 0;
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    s->text = nb_alloc(HU_LEN, &s->raw[0]);
    s->comp = nb_alloc(HU_LEN, &s->raw[1]);
    s->out = nb_alloc(HU_LEN, &s->raw[2]);
    if (!s->text || !s->comp || !s->out)
        return tm_fail(ctx, "out of memory");
    memset(s->text, 0, HU_LEN);
    nb_reset(&r);
    while (pos < HU_LEN - 1) {
        size_t len = (size_t)nb_abs_randwc(&r, 494) + 6, k = 0;
        if (pos + len > HU_LEN - 1)
            len = HU_LEN - 1 - pos;
        if (len > 1) {
            while (k < len) {
                const char *w = hu_words[nb_abs_randwc(&r, 50)];
                size_t c;
                for (c = 0; w[c] && k < len; c++)
                    s->text[pos + k++] = (unsigned char)w[c];
                if (k < len)
                    s->text[pos + k++] = ' ';
            }
            s->text[pos + len - 1] = '\n';
            lines++;
        }
        pos += len;
    }
    s->text[HU_LEN - 1] = 0;
    if (lines != 17 || memcmp(s->text, "yourselves togetherness together if", 35) != 0)
        return tm_fail(ctx, "huffman: generated text differs from the reference workload");
    s->bits = hu_loop(s);
    if (s->bits != 21354 || memcmp(s->out, s->text, HU_LEN) != 0)
        return tm_fail(ctx, "huffman: compression gave %ld bits (expected 21354) or a wrong text",
                       s->bits);
    return TM_OK;
}

static void hu_run(tm_ctx *ctx, uint64_t iters)
{
    hu_state *s = ctx->user;
    while (iters--) {
        long bits;
        memset(s->out, 0xff, 16); /* a stale result cannot pass the check */
        tm_escape(s->text);
        bits = hu_loop(s);
        tm_escape(s->out);
        if (bits != s->bits || memcmp(s->out, s->text, HU_LEN) != 0) {
            tm_fail(ctx, "huffman: decompressed text differs from the input");
            return;
        }
    }
}

static void hu_teardown(tm_ctx *ctx)
{
    hu_state *s = ctx->user;
    if (s)
        nb_release(ctx, s->raw, 3);
}

TM_BENCH(cpu_huffman) = {
    .name = "cpu.huffman",
    .summary = "nbench Huffman: build a tree, compress and decompress 5000 bytes of text",
    .verifies = "the decompressed text equals the input",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = hu_run,
    .setup = hu_setup,
    .teardown = hu_teardown,
};
