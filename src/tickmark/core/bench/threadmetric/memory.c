/* threadmetric.memory — Thread-Metric's memory allocation: one operation is one allocation of a
 * 128-byte block and its release, by one thread. Thread-Metric takes the block from a pool of
 * fixed-size blocks; not every system here has one, so ours comes from the heap the system gives
 * programs (tm_os_alloc: FreeRTOS's heap_4, NuttX's and Linux's malloc), the one heap.* measures.
 * The block is not touched. Timed: the allocations and releases. Not timed: nothing else. */
#include "tickmark/bench.h"
#include "tickmark/osal.h"

#define BLOCK 128

static void run(tm_ctx *ctx, uint64_t iters)
{
    uint64_t i;
    for (i = 0; i < iters; i++) {
        void *p = tm_os_alloc(BLOCK);
        if (!p) {
            tm_fail(ctx, "the allocation of %d bytes failed", BLOCK);
            return;
        }
        tm_escape(p);
        tm_os_free(p);
    }
}

TM_BENCH(threadmetric_memory) = {
    .name = "threadmetric.memory",
    .summary = "memory allocation: one 128-byte block allocated and released by one thread",
    .unit = "block",
    .run = run,
};
