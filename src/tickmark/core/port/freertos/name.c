/* Name of the port, reported in every run: the core runs as a FreeRTOS task, its threads are
 * tasks (see port/README.md). */
#include "tickmark/osal.h"

const char *tm_port_name(void) { return "freertos"; }
