/* Free memory on FreeRTOS: what xPortGetFreeHeapSize() says of heap_4. */
#include "FreeRTOS.h"

#include "tickmark/osal.h"

uint64_t tm_os_mem_available(void) { return xPortGetFreeHeapSize(); }
