/* Sleeping on FreeRTOS: vTaskDelayUntil, which counts ticks (1 ms at configTICK_RATE_HZ 1000),
 * so a sleep ends at the first tick at or after the deadline and the resolution is one tick.
 * The deadline is in the port's clock (not the tick count): the number of ticks still to wait
 * is worked out from it, and a wake-up that is still early (the tick and the clock are not in
 * phase) waits one tick more. */
#include "FreeRTOS.h"
#include "task.h"

#include "tickmark/osal_prim.h"

#define TICK_NS (1000000000u / configTICK_RATE_HZ)

int tm_os_sleep_until_ns(uint64_t deadline_ns)
{
    uint64_t now;
    while ((now = tm_os_now_ns()) < deadline_ns) {
        TickType_t from = xTaskGetTickCount();
        vTaskDelayUntil(&from, (TickType_t)((deadline_ns - now + TICK_NS - 1) / TICK_NS));
    }
    return 0;
}

uint64_t tm_os_sleep_res_ns(void) { return TICK_NS; }
