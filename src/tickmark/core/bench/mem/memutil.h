/* Buffers and pointer chains shared by the mem.* benchmarks. */
#ifndef TM_BENCH_MEMUTIL_H
#define TM_BENCH_MEMUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "tickmark/bench.h"

typedef struct tm_membuf {
    char *p;          /* usable start, 2 MiB aligned when huge pages were asked for */
    size_t bytes;     /* usable length */
    void *map;        /* what tm_os_map returned */
    size_t map_bytes;
    int huge_pct;     /* thp=1: percent of the 2 MiB pages covering the set that the OS backs
                         with huge pages after touching (-1: it cannot tell) */
} tm_membuf;

/* Map a buffer of `bytes` with huge pages advised on (thp=1) or off (thp=0) or left to the OS
 * default (thp=-1), and fault in every page (tm_os_populate, else a write to each). With thp=1
 * the buffer starts on a 2 MiB boundary (a set smaller than 2 MiB lies inside one huge page),
 * and how much of it the OS really backed with huge pages is checked and sent as the
 * instance's info "huge_pct" (100: all of it). Skips when the buffer would take more than a
 * quarter of the available memory, or when huge pages were asked for and the OS cannot give
 * them. Returns TM_OK / tm_skip / tm_fail. */
int tm_membuf_get(tm_ctx *ctx, tm_membuf *b, size_t bytes, int thp);
void tm_membuf_put(tm_membuf *b);

/* Write a single random cycle (Sattolo) through all `slot`-byte slots of [p, p+bytes): each slot
 * starts with a pointer to the next slot of the cycle. Consecutive slots of the cycle are
 * uniformly random, so on a set larger than a page they lie in different pages. Returns a
 * random slot of the cycle, or NULL when the index array cannot be allocated. */
void **tm_chain_random(char *p, size_t bytes, size_t slot, uint64_t seed);

/* Follow a pointer chain for iters x 64 dependent loads (p = *p; the body of every mem.lat_*
 * chase) and return where it stopped. */
void **tm_chase(void **p, uint64_t iters);

/* The state of a chase through one buffer (mem.lat_rand, lat_stride, lat_tlb, lat_pagelocal):
 * the buffer and where the chase stands; their set-up makes it ctx->user. Their run is
 * tm_chase_run (tm_chase from where the previous batch stopped) and their teardown
 * tm_chase_teardown (the buffer given back). */
typedef struct {
    tm_membuf buf;
    void **cur;
} tm_chase_state;
void tm_chase_run(tm_ctx *ctx, uint64_t iters);
void tm_chase_teardown(tm_ctx *ctx);

/* The working sets of the random chases (mem.lat_rand, mem.lat_pagelocal): 1 KiB to 128 MiB,
 * two steps an octave. */
#define TM_CHASE_SIZES                                                                                  \
    "1K,1536,2K,3K,4K,6K,8K,12K,16K,24K,32K,48K,64K,96K,128K,192K,256K,"                                \
    "384K,512K,768K,1M,1536K,2M,3M,4M,6M,8M,12M,16M,24M,32M,48M,64M,96M,"                               \
    "128M"

/* A fingerprint of a chain's layout: a hash of the offsets (from base) of its first 64 hops,
 * reported as the instance's "chain" info so that two runs can show they chased the same chain. */
int64_t tm_chain_id(void **start, const char *base);

/* Non-temporal (streaming) stores, from arch/: fill [dst, dst+n) with the word v, or copy n
 * bytes from src, writing around the caches (x86-64 movntdq, arm64 stnp). dst and src 64-byte
 * aligned, n a multiple of 64. Return 0, or -1 where the architecture has no such store here
 * (then nothing is written). tm_arch_nt_name() says which instruction, or why none. */
int tm_arch_nt_fill(void *dst, size_t n, uint64_t v);
int tm_arch_nt_copy(void *dst, const void *src, size_t n);
const char *tm_arch_nt_name(void);

/* A small fast generator (xorshift64*) for setup code. */
uint64_t tm_rand64(uint64_t *state);
/* A uniformly distributed integer in [0, n). */
size_t tm_rand_below(uint64_t *state, size_t n);

#endif
