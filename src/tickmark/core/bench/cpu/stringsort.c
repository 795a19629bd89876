/* cpu.stringsort — nbench 2.2.3 "string sort": one iteration heapsorts one 8111-byte buffer of
 * 215 packed length-prefixed strings in place. Exchanging two strings resizes their slots by
 * moving the whole tail of the buffer, so the work is dominated by memmove, which goes through
 * the routine table (tm_memfns_active()->memmove_fn): a variant memmove changes the speed, a
 * broken one fails verification.
 * Timed: restoring the buffer and offset table from a pristine copy (8 KB + 215 offsets; the
 * reference rebuilds them untimed) and the sort. Verified every iteration: buffer and offsets
 * must equal the expected result, computed once in setup by the same heapsort run on an index
 * permutation (no memmove involved) and a byte-by-byte concatenation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nb_common.h"
#include "tickmark/memfn.h"

#define SS_LEN 8111
#define SS_SLACK 100
#define SS_MAXSTR (SS_LEN / 2)

typedef struct ss_state {
    void *raw[3];
    unsigned char *buf, *pristine, *expect;
    unsigned long off[SS_MAXSTR], off0[SS_MAXSTR], offx[SS_MAXSTR];
    size_t n;
    int bad; /* the buffer got inconsistent (a broken memmove): stop moving, fail */
    void *(*move)(void *, const void *, size_t);
} ss_state;

/* a < b with the reference's rule: the C library's strncmp over min(La, Lb) bytes starting at
 * the length bytes; on equality, a < b when a is the longer. */
static int ss_less(const unsigned char *a, const unsigned char *b)
{
    size_t m = a[0] < b[0] ? a[0] : b[0];
    int c = strncmp((const char *)a, (const char *)b, m);
    return c ? c < 0 : a[0] > b[0];
}

/* Resize slot i to length len: move the whole tail after it, even when the length is the same.
 * The bounds check costs two compares per move and keeps a corrupted buffer from taking the
 * process down before verification can report it. */
static void ss_resize(ss_state *s, size_t i, unsigned len)
{
    unsigned char *buf = s->buf;
    if (i + 1 < s->n) {
        size_t last = s->n - 1;
        size_t src = s->off[i + 1];
        size_t end = s->off[last] + buf[s->off[last]] + 1u;
        long delta = (long)len - (long)buf[s->off[i]];
        size_t t;
        if (end > SS_LEN + SS_SLACK || (long)end + delta > SS_LEN + SS_SLACK) {
            s->bad = 1;
            return;
        }
        s->move(buf + s->off[i] + len + 1, buf + src, end - src);
        {
            unsigned char mag = (unsigned char)(delta < 0 ? -delta : delta);
            for (t = i + 1; t < s->n; t++)
                if (delta < 0)
                    s->off[t] -= mag;
                else
                    s->off[t] += mag;
        }
    }
    buf[s->off[i]] = (unsigned char)len;
}

/* Exchange the strings in slots i < k. */
static void ss_swap(ss_state *s, size_t i, size_t k)
{
    unsigned char tmp[256];
    unsigned char *buf = s->buf;
    unsigned tl = buf[s->off[k]];
    if (s->bad)
        return;
    s->move(tmp, buf + s->off[k], tl + 1u);
    ss_resize(s, k, buf[s->off[i]]);
    s->move(buf + s->off[k], buf + s->off[i], buf[s->off[i]] + 1u);
    ss_resize(s, i, tl);
    s->move(buf + s->off[i], tmp, tl + 1u);
}

static void ss_sift(ss_state *s, size_t i, size_t j)
{
    while (2 * i <= j) {
        size_t k = 2 * i;
        if (k < j && ss_less(s->buf + s->off[k], s->buf + s->off[k + 1]))
            k++;
        if (ss_less(s->buf + s->off[i], s->buf + s->off[k])) {
            ss_swap(s, i, k);
            i = k;
        } else {
            break;
        }
    }
}

static void ss_heapsort(ss_state *s)
{
    size_t top = s->n - 1, i;
    for (i = top / 2; i > 0; i--)
        ss_sift(s, i, top);
    for (i = top; i > 0; i--) {
        ss_sift(s, 0, i);
        ss_swap(s, 0, i);
    }
}

/* The same heapsort on a permutation of string pointers: the expected order. */
static void ss_psift(const unsigned char **p, size_t i, size_t j)
{
    while (2 * i <= j) {
        size_t k = 2 * i;
        if (k < j && ss_less(p[k], p[k + 1]))
            k++;
        if (ss_less(p[i], p[k])) {
            const unsigned char *t = p[i];
            p[i] = p[k];
            p[k] = t;
            i = k;
        } else {
            break;
        }
    }
}

static int ss_setup(tm_ctx *ctx)
{
    ss_state *s = calloc(1, sizeof *s);
    const unsigned char **perm;
    nb_rng r;
    size_t pos = 0, i, top;
    int last = 0;
    if (!s)
        return tm_fail(ctx, "out of memory");
    ctx->user = s;
    s->move = tm_memfns_active()->memmove_fn;
    s->buf = nb_alloc(SS_LEN + SS_SLACK + 256, &s->raw[0]); /* + reads past a corrupted length */
    s->pristine = nb_alloc(SS_LEN + SS_SLACK, &s->raw[1]);
    s->expect = nb_alloc(SS_LEN + SS_SLACK, &s->raw[2]);
    if (!s->buf || !s->pristine || !s->expect)
        return tm_fail(ctx, "out of memory");
    memset(s->pristine, 0, SS_LEN + SS_SLACK);
    nb_reset(&r);
    while (!last) {
        unsigned len = 1u + (unsigned)nb_abs_randwc(&r, 76);
        if (len + pos + 1 >= SS_LEN) {
            len = (unsigned)(SS_LEN - pos - 1);
            last = 1;
        }
        s->off0[s->n++] = pos;
        s->pristine[pos] = (unsigned char)len;
        for (i = 1; i <= len; i++)
            s->pristine[pos + i] = (unsigned char)nb_abs_randwc(&r, 254);
        pos += len + 1;
    }
    if (s->n != 215 || s->pristine[0] != 70 || s->pristine[s->off0[s->n - 1]] != 46)
        return tm_fail(ctx, "stringsort: generated data differ from the reference workload");
    perm = malloc(s->n * sizeof *perm);
    if (!perm)
        return tm_fail(ctx, "out of memory");
    for (i = 0; i < s->n; i++)
        perm[i] = s->pristine + s->off0[i];
    top = s->n - 1;
    for (i = top / 2; i > 0; i--)
        ss_psift(perm, i, top);
    for (i = top; i > 0; i--) {
        const unsigned char *t;
        ss_psift(perm, 0, i);
        t = perm[0];
        perm[0] = perm[i];
        perm[i] = t;
    }
    for (pos = 0, i = 0; i < s->n; i++) {
        size_t b;
        s->offx[i] = pos;
        for (b = 0; b <= perm[i][0]; b++)
            s->expect[pos++] = perm[i][b];
    }
    free(perm);
    for (i = 1; i < s->n; i++)
        if (ss_less(s->expect + s->offx[i], s->expect + s->offx[i - 1]))
            return tm_fail(ctx, "stringsort: reference order is not sorted");
    return TM_OK;
}

static void ss_run(tm_ctx *ctx, uint64_t iters)
{
    ss_state *s = ctx->user;
    while (iters--) {
        memcpy(s->buf, s->pristine, SS_LEN);
        memcpy(s->off, s->off0, s->n * sizeof s->off[0]);
        s->bad = 0;
        tm_escape(s->buf);
        ss_heapsort(s);
        tm_escape(s->buf);
        if (s->bad || memcmp(s->buf, s->expect, SS_LEN) != 0 ||
            memcmp(s->off, s->offx, s->n * sizeof s->off[0]) != 0) {
            tm_fail(ctx, "stringsort: sorted strings are wrong (memmove routine '%s' broken?)",
                    tm_memfns_active()->name);
            return;
        }
    }
}

static void ss_teardown(tm_ctx *ctx)
{
    ss_state *s = ctx->user;
    if (s)
        nb_release(ctx, s->raw, 3);
}

TM_BENCH(cpu_stringsort) = {
    .name = "cpu.stringsort",
    .summary = "nbench string sort: heapsort of 215 packed strings moved with memmove",
    .verifies = "the sorted strings and offsets equal the reference order",
    .unit = "iteration",
    .ops_per_iter = 1,
    .run = ss_run,
    .setup = ss_setup,
    .teardown = ss_teardown,
};
