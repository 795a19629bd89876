/* Monotonic time on bare metal: the time base of the architecture and board (timebase.h),
 * converted to nanoseconds (by one multiplication where the counter's rate divides 1 GHz, as it
 * does on every board here). */
#include "timebase.h"
#include "tickmark/osal.h"

static tm_bm_timebase tb;
static int picked;
static uint64_t ns_per_count; /* when the rate divides 1 GHz (25 MHz: 40), else 0 */

const tm_bm_timebase *tm_bm_timebase_get(void)
{
    if (!picked) {
        tm_bm_timebase_pick(&tb);
        ns_per_count = 1000000000u % tb.hz == 0 ? 1000000000u / tb.hz : 0;
        picked = 1;
    }
    return &tb;
}

uint64_t tm_bm_extend(uint32_t now, unsigned bits, uint32_t *last, uint64_t *high)
{
    uint32_t mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
    if ((now & mask) < (*last & mask))
        *high += (uint64_t)mask + 1;
    *last = now & mask;
    return *high + *last;
}

uint64_t tm_os_now_ns(void)
{
    const tm_bm_timebase *t = tm_bm_timebase_get();
    uint64_t c = t->read();
    if (ns_per_count) /* a multiplication, not three 64-bit divisions: the clock is read in timed loops */
        return c * ns_per_count;
    return c / t->hz * 1000000000u + c % t->hz * 1000000000u / t->hz;
}

uint64_t tm_os_clock_res_ns(void)
{
    const tm_bm_timebase *t = tm_bm_timebase_get();
    return (1000000000u + t->hz - 1) / t->hz;
}

const char *tm_os_clock_name(void) { return tm_bm_timebase_get()->name; }
