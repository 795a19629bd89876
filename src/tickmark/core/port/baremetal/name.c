/* Name of the port, reported in every run. Bare metal has no processes: every benchmark runs in
 * the one program, without a time limit or crash protection (a fault ends the run: the
 * harness reports the unfinished benchmark as crashed). */
#include "tickmark/osal.h"

const char *tm_port_name(void) { return "baremetal"; }
