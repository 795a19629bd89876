/* Arguments for a start without a command line (semihosting normally passes one): the
 * compiled-in TM_BUILTIN_ARGS, e.g. -DTM_BUILTIN_ARGS='"run sys.* --samples 5"'. */
#include "tickmark/osal.h"

#ifndef TM_BUILTIN_ARGS
#define TM_BUILTIN_ARGS ""
#endif

const char *tm_port_args(void) { return TM_BUILTIN_ARGS; }
