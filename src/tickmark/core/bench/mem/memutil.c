/* Buffers and pointer chains shared by the mem.* benchmarks (see memutil.h). */
#include "memutil.h"
#include "tickmark/osal.h"

#define HUGE_ALIGN ((size_t)2 << 20)

uint64_t tm_rand64(uint64_t *s)
{
    uint64_t x = *s ? *s : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

size_t tm_rand_below(uint64_t *s, size_t n)
{
    return (size_t)(((tm_rand64(s) >> 32) * (uint64_t)n) >> 32);
}

int tm_membuf_get(tm_ctx *ctx, tm_membuf *b, size_t bytes, int thp)
{
    uint64_t avail = tm_os_mem_available();
    size_t page = tm_os_page_size(), i, span;
    b->map = NULL;
    if (avail && bytes > avail / 4)
        return tm_skip(ctx, "%lu MiB is more than a quarter of the available memory (%lu MiB)",
                       (unsigned long)(bytes >> 20), (unsigned long)(avail >> 20));
    /* with huge pages: whole huge pages (at least one, also for a small set), and room to align */
    span = (bytes + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
    b->map_bytes = thp > 0 ? span + HUGE_ALIGN : bytes;
    b->map = tm_os_map(b->map_bytes);
    if (!b->map)
        return tm_skip(ctx, "cannot map %lu KiB", (unsigned long)(b->map_bytes >> 10));
    b->p = b->map;
    if (thp > 0)
        b->p = (char *)(((uintptr_t)b->map + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
    b->bytes = bytes;
    /* a huge page needs the advice on a whole aligned 2 MiB range, also for a smaller set */
    if (thp >= 0 && tm_os_huge_advise(b->p, thp > 0 ? span : bytes, thp) != 0 &&
        thp) {
        tm_membuf_put(b);
        return tm_skip(ctx, "transparent huge pages not available");
    }
    if (tm_os_populate(b->p, bytes) != 0)
        for (i = 0; i < bytes; i += page)
            b->p[i] = 1;
    b->huge_pct = -1;
    if (thp > 0) {
        int64_t got = tm_os_huge_bytes(b->p, span);
        if (got >= 0)
            b->huge_pct = (int)((uint64_t)got * 100 / span);
        tm_info(ctx, "huge_pct", b->huge_pct);
    }
    return TM_OK;
}

void tm_membuf_put(tm_membuf *b)
{
    if (b->map)
        tm_os_unmap(b->map, b->map_bytes);
    b->map = NULL;
}

void **tm_chain_random(char *p, size_t bytes, size_t slot, uint64_t seed)
{
    size_t n = bytes / slot, i;
    uint32_t *next;
    void **start;
    if (n < 2)
        n = 2;
    next = tm_os_alloc(n * sizeof *next);
    if (!next)
        return NULL;
    for (i = 0; i < n; i++)
        next[i] = (uint32_t)i;
    for (i = n - 1; i > 0; i--) { /* Sattolo: slot i -> next[i] is one cycle through all n slots */
        size_t j = tm_rand_below(&seed, i);
        uint32_t t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    for (i = 0; i < n; i++) /* written in address order: no cache or TLB miss per slot here */
        *(void **)(p + i * slot) = p + (size_t)next[i] * slot;
    start = (void **)(p + tm_rand_below(&seed, n) * slot);
    tm_os_free(next);
    return start;
}

int64_t tm_chain_id(void **start, const char *base)
{
    uint64_t h = 1469598103934665603ull;
    void **p = start;
    int i;
    for (i = 0; i < 64 && p; i++) {
        h = (h ^ (uint64_t)((const char *)p - base)) * 1099511628211ull;
        p = (void **)*p;
    }
    return (int64_t)(h >> 1);
}

#define L1_ p = (void **)*p;
#define L8_ L1_ L1_ L1_ L1_ L1_ L1_ L1_ L1_
#define L64_ L8_ L8_ L8_ L8_ L8_ L8_ L8_ L8_

void **tm_chase(void **p, uint64_t iters)
{
    while (iters--) {
        L64_
    }
    tm_escape(p);
    return p;
}

void tm_chase_run(tm_ctx *ctx, uint64_t iters)
{
    tm_chase_state *st = ctx->user;
    st->cur = tm_chase(st->cur, iters);
}

void tm_chase_teardown(tm_ctx *ctx)
{
    tm_chase_state *st = ctx->user;
    if (st)
        tm_membuf_put(&st->buf);
    ctx->user = NULL;
}
