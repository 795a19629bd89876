/* The implementations side by side, and the check each one passes before it is timed.
 *
 * The check runs every routine over a fixed pseudo-random set of cases (all sizes 0..80 and
 * random ones up to a few KiB, source/destination misalignments 0..15, overlaps in both
 * directions for memmove, differences at random positions with bytes above 0x7f for the
 * comparisons) and compares the whole destination area, guard bytes around it included, and
 * the return value with what the C standard says the result is. The expected results are
 * computed here with plain index loops, so the bytewise reference is checked as well. */
#include <stdio.h>
#include <string.h>

#include "tickmark/memfn.h"

#define MAXN 4200           /* largest case size */
#define PAD 64              /* room for misalignment and guard bytes */
#define BUF (3 * (MAXN + PAD))

static unsigned char buf_a[BUF], buf_b[BUF], expect[BUF];

const tm_memfns *tm_memfns_impl(int idx)
{
    switch (idx) {
    case 0: return tm_memfns_libc();
    case 1: return tm_memfns_ref();
    case 2: return tm_memfns_word();
    case 3: return tm_memfns_user();
    default: return NULL;
    }
}

static unsigned rnd(unsigned long *s) /* 31-bit LCG; fixed seed, reproducible cases */
{
    *s = *s * 1103515245ul + 12345ul;
    return (unsigned)((*s >> 16) & 0x7fffffff);
}

static void fill(unsigned char *p, size_t n, unsigned long *s, int nonzero)
{
    size_t i;
    for (i = 0; i < n; i++) {
        p[i] = (unsigned char)rnd(s);
        if (nonzero && !p[i])
            p[i] = 0x5a;
    }
}

static int sign(long v) { return v < 0 ? -1 : v > 0; }
static const char *sign_text(int s) { return s < 0 ? "< 0" : s > 0 ? "> 0" : "0"; }

/* The size of case k: first every size 0..80, then random ones, a few of them large. */
static size_t case_size(int k, unsigned long *s)
{
    if (k <= 80)
        return (size_t)k;
    if (k % 16 == 0)
        return MAXN - 200 + rnd(s) % 200;
    return rnd(s) % 1100;
}

/* First byte of [0, n) where got and want differ, or -1. */
static long first_diff(const unsigned char *got, const unsigned char *want, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (got[i] != want[i])
            return (long)i;
    return -1;
}

#define NCASES 400
#define FAIL(...) (snprintf(msg, len, __VA_ARGS__), -1)

static int check_copy(const tm_memfns *f, int is_str, char *msg, size_t len)
{
    unsigned long s = 1;
    int k;
    const char *nm = is_str ? "strcpy" : "memcpy";
    for (k = 0; k < NCASES; k++) {
        size_t n = case_size(k, &s), sa = rnd(&s) % 16, da = rnd(&s) % 16, i;
        size_t span = da + n + PAD;
        unsigned char *src = buf_a + sa, *dst = buf_b + PAD + da;
        void *ret;
        long d;
        fill(buf_a, sa + n + PAD, &s, is_str);
        if (is_str)
            src[n] = 0;
        fill(buf_b, PAD + span, &s, 0);
        memcpy(expect, buf_b, PAD + span);
        for (i = 0; i < n + (size_t)is_str; i++)
            expect[PAD + da + i] = src[i];
        ret = is_str ? (void *)f->strcpy_fn((char *)dst, (const char *)src)
                     : f->memcpy_fn(dst, src, n);
        d = first_diff(buf_b, expect, PAD + span);
        if (d >= 0)
            return FAIL("%s[%s] wrong at size %lu src+%lu dst+%lu: byte %ld is 0x%02x, expected "
                        "0x%02x",
                        nm, f->name, (unsigned long)n, (unsigned long)sa, (unsigned long)da,
                        d - (long)(PAD + da), buf_b[d], expect[d]);
        if (ret != dst)
            return FAIL("%s[%s] wrong at size %lu src+%lu dst+%lu: returned dst%+ld, expected dst",
                        nm, f->name, (unsigned long)n, (unsigned long)sa, (unsigned long)da,
                        (long)((unsigned char *)ret - dst));
    }
    return 0;
}

static int check_memmove(const tm_memfns *f, char *msg, size_t len)
{
    unsigned long s = 2;
    int k;
    fill(buf_b, BUF, &s, 0);
    memcpy(expect, buf_b, BUF);
    for (k = 0; k < NCASES * 2; k++) {
        size_t n = case_size(k / 2, &s), sa = rnd(&s) % 16, i;
        long shift = (long)(rnd(&s) % (n + 17)) * (k % 2 ? 1 : -1); /* both directions */
        unsigned char *src = buf_b + MAXN + PAD + sa, *dst = src + shift;
        long lo = (long)((shift < 0 ? dst : src) - buf_b) - PAD;
        long hi = (long)((shift < 0 ? src : dst) - buf_b) + (long)n + PAD;
        void *ret;
        long d;
        /* fresh bytes around both areas; the rest of buf_b still equals expect (the last case passed) */
        lo = lo < 0 ? 0 : lo;
        hi = hi > BUF ? BUF : hi;
        fill(buf_b + lo, (size_t)(hi - lo), &s, 0);
        memcpy(expect + lo, buf_b + lo, (size_t)(hi - lo));
        for (i = 0; i < n; i++)
            buf_a[i] = src[i];
        for (i = 0; i < n; i++)
            expect[(dst - buf_b) + (long)i] = buf_a[i];
        ret = f->memmove_fn(dst, src, n);
        d = first_diff(buf_b, expect, BUF);
        if (d >= 0)
            return FAIL("memmove[%s] wrong at size %lu dst=src%+ld (src+%lu): byte %ld is 0x%02x, "
                        "expected 0x%02x",
                        f->name, (unsigned long)n, shift,
                        (unsigned long)sa, d - (long)(dst - buf_b), buf_b[d],
                        expect[d]);
        if (ret != dst)
            return FAIL("memmove[%s] wrong at size %lu dst=src%+ld: returned dst%+ld, expected dst",
                        f->name, (unsigned long)n, shift, (long)((unsigned char *)ret - dst));
    }
    return 0;
}

static int check_memset(const tm_memfns *f, char *msg, size_t len)
{
    unsigned long s = 3;
    int k;
    for (k = 0; k < NCASES; k++) {
        size_t n = case_size(k, &s), da = rnd(&s) % 16, span = PAD + da + n + PAD, i;
        unsigned char *dst = buf_b + PAD + da;
        int c = (int)(rnd(&s) % 256);
        void *ret;
        long d;
        if (k % 7 == 0)
            c += 256 * (int)(1 + rnd(&s) % 3); /* only the low byte counts */
        fill(buf_b, span, &s, 0);
        memcpy(expect, buf_b, span);
        for (i = 0; i < n; i++)
            expect[PAD + da + i] = (unsigned char)c;
        ret = f->memset_fn(dst, c, n);
        d = first_diff(buf_b, expect, span);
        if (d >= 0)
            return FAIL("memset[%s] wrong at size %lu dst+%lu value 0x%x: byte %ld is 0x%02x, "
                        "expected 0x%02x",
                        f->name, (unsigned long)n, (unsigned long)da, (unsigned)c,
                        d - (long)(PAD + da), buf_b[d], expect[d]);
        if (ret != dst)
            return FAIL("memset[%s] wrong at size %lu dst+%lu: returned dst%+ld, expected dst",
                        f->name, (unsigned long)n, (unsigned long)da,
                        (long)((unsigned char *)ret - dst));
    }
    return 0;
}

/* memcmp and strcmp: equal areas, or one differing byte at a random position. */
static int check_compare(const tm_memfns *f, int is_str, char *msg, size_t len)
{
    unsigned long s = 4;
    int k;
    const char *nm = is_str ? "strcmp" : "memcmp";
    for (k = 0; k < NCASES * 2; k++) {
        size_t n = case_size(k / 2, &s), sa = rnd(&s) % 16, sb = rnd(&s) % 16, i;
        unsigned char *a = buf_a + sa, *b = buf_b + sb;
        long at = -1;
        int want = 0, got;
        fill(a, n + 2, &s, is_str);
        memcpy(b, a, n + 2);
        if (is_str)
            a[n] = b[n] = 0;
        if (n && rnd(&s) % 3) {
            at = (long)(rnd(&s) % n);
            b[at] = (unsigned char)(a[at] + 1 + rnd(&s) % 255); /* may be 0 for strcmp */
        } else if (is_str && k % 4 == 1) {
            at = (long)n; /* b is longer */
            b[n] = (unsigned char)(1 + rnd(&s) % 255);
            b[n + 1] = 0;
        }
        for (i = 0; i < n + (size_t)is_str; i++)
            if (a[i] != b[i] || (is_str && !a[i])) {
                want = a[i] == b[i] ? 0 : (a[i] < b[i] ? -1 : 1);
                break;
            }
        got = is_str ? f->strcmp_fn((const char *)a, (const char *)b) : f->memcmp_fn(a, b, n);
        if (sign(got) != want) {
            if (at >= 0)
                return FAIL("%s[%s] wrong at size %lu a+%lu b+%lu (first difference at byte %ld, "
                            "0x%02x vs 0x%02x): returned %d, expected %s",
                            nm, f->name, (unsigned long)n, (unsigned long)sa, (unsigned long)sb,
                            at, a[at], b[at], got, sign_text(want));
            return FAIL("%s[%s] wrong at size %lu a+%lu b+%lu (equal): returned %d, expected 0", nm,
                        f->name, (unsigned long)n, (unsigned long)sa, (unsigned long)sb, got);
        }
    }
    return 0;
}

static int check_strlen(const tm_memfns *f, char *msg, size_t len)
{
    unsigned long s = 5;
    int k;
    for (k = 0; k < NCASES; k++) {
        size_t n = case_size(k, &s), sa = rnd(&s) % 16, got;
        char *p = (char *)buf_a + sa;
        fill(buf_a, sa + n + PAD, &s, 1);
        p[n] = 0;
        got = f->strlen_fn(p);
        if (got != n)
            return FAIL("strlen[%s] wrong at length %lu s+%lu: returned %lu, expected %lu",
                        f->name, (unsigned long)n, (unsigned long)sa, (unsigned long)got,
                        (unsigned long)n);
    }
    return 0;
}

int tm_memfns_verify(const tm_memfns *f, const char *fn, char *msg, size_t len)
{
    if (!strcmp(fn, "memcpy") && f->memcpy_fn)
        return check_copy(f, 0, msg, len);
    if (!strcmp(fn, "strcpy") && f->strcpy_fn)
        return check_copy(f, 1, msg, len);
    if (!strcmp(fn, "memmove") && f->memmove_fn)
        return check_memmove(f, msg, len);
    if (!strcmp(fn, "memset") && f->memset_fn)
        return check_memset(f, msg, len);
    if (!strcmp(fn, "memcmp") && f->memcmp_fn)
        return check_compare(f, 0, msg, len);
    if (!strcmp(fn, "strcmp") && f->strcmp_fn)
        return check_compare(f, 1, msg, len);
    if (!strcmp(fn, "strlen") && f->strlen_fn)
        return check_strlen(f, msg, len);
    snprintf(msg, len, "%s[%s]: no such routine", fn, f->name);
    return -1;
}
