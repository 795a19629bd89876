/* Name of the port, reported in every run. */
#include "tickmark/osal.h"

const char *tm_port_name(void) { return "zephyr"; }
