/* Shared by the cpu.* kernels (the BYTEmark/nbench 2.2.3 workloads): the benchmark's random
 * generator, its buffer placement rule, and the teardown of a kernel's buffers and state.
 * Header-only so that each kernel stays one file. */
#ifndef TM_CPU_NB_COMMON_H
#define TM_CPU_NB_COMMON_H

#include <stdint.h>
#include <stdlib.h>

#include "tickmark/bench.h"
#include "tickmark/osal.h"

/* Second-order linear congruential generator: x = (254754*s1 + 529562*s2) mod 999563 in signed
 * 32-bit arithmetic that wraps (done in unsigned to stay defined), remainder truncating toward
 * zero, so about half the outputs are negative. */
typedef struct nb_rng {
    int32_t s1, s2;
} nb_rng;

static inline int32_t nb_next(nb_rng *r)
{
    uint32_t p = 254754u * (uint32_t)r->s1 + 529562u * (uint32_t)r->s2;
    int32_t v = (p & 0x80000000u) ? -(int32_t)(~p) - 1 : (int32_t)p;
    int32_t x = v % 999563;
    r->s2 = r->s1;
    r->s1 = x;
    return x;
}

/* Reset to the fixed state and consume one value, as the reference does on every reset. */
static inline void nb_reset(nb_rng *r)
{
    r->s1 = 13;
    r->s2 = 117;
    (void)nb_next(r);
}

static inline int32_t nb_randwc(nb_rng *r, int32_t n) { return nb_next(r) % n; }

static inline int32_t nb_abs_randwc(nb_rng *r, int32_t n)
{
    int32_t x = nb_next(r) % n;
    return x < 0 ? -x : x;
}

/* Buffers start at an address that is 8 mod 16 (8-byte aligned, deliberately not 16-byte
 * aligned), like the reference's. *raw is what to give back to nb_free. */
static inline void *nb_alloc(size_t bytes, void **raw)
{
    unsigned char *p = tm_os_alloc(bytes + 16);
    *raw = p;
    if (!p)
        return NULL;
    return p + ((8u - ((uintptr_t)p & 15u)) & 15u);
}

static inline void nb_free(void *raw) { tm_os_free(raw); }

/* A kernel's teardown, once set-up made its state (ctx->user, from calloc): its n buffers of
 * nb_alloc (their raw pointers), then the state. */
static inline void nb_release(tm_ctx *ctx, void **raw, int n)
{
    int i;
    for (i = 0; i < n; i++)
        nb_free(raw[i]);
    free(ctx->user);
    ctx->user = NULL;
}

#endif
