/* The bare-metal time base: one free-running counter, chosen at start by the file of the
 * architecture (port/baremetal/arch/<arch>/timebase.c) from what the CPU and the board have.
 * The board's figures come from its description (boards/<board>.mk) as -D definitions:
 *   TM_BM_CLOCK_HZ       core clock
 *   TM_BM_COUNTER_ADDR   address of a free-running 32-bit up-counter of the board, or 0
 *   TM_BM_COUNTER_HZ     its rate */
#ifndef TM_BM_TIMEBASE_H
#define TM_BM_TIMEBASE_H

#include <stdint.h>

typedef struct tm_bm_timebase {
    const char *name;      /* "dwt-cyccnt", "systick", "pmccntr_el0", "mcycle", ... */
    uint64_t hz;           /* counts per second */
    int cycles;            /* 1 when it counts core cycles */
    uint64_t (*read)(void); /* the raw counter, already extended to 64 bits */
} tm_bm_timebase;

/* Pick the counter (called once, before the first read). */
void tm_bm_timebase_pick(tm_bm_timebase *tb);

/* The chosen time base (picked on first use). */
const tm_bm_timebase *tm_bm_timebase_get(void);

/* Extend a counter of `bits` bits that counts up to 64 bits; it must be read at least once per
 * wrap period (a sample is far shorter). *last and *high keep the state. */
uint64_t tm_bm_extend(uint32_t now, unsigned bits, uint32_t *last, uint64_t *high);

#endif
