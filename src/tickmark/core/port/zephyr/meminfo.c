/* Memory on Zephyr, for the sweeps that skip what does not fit: the size of the C library's
 * malloc arena (Zephyr 2.7's minimal libc keeps no count of what is free in it, so this is an
 * upper bound; the sweeps use a quarter of it). */
#include <zephyr.h>

#include "tickmark/osal.h"

uint64_t tm_os_mem_available(void) { return (uint64_t)CONFIG_MINIMAL_LIBC_MALLOC_ARENA_SIZE; }
