/* The saved program counter of a signal handler's context on Linux/aarch64. */
#define TM_SIGPC uc_mcontext.pc
#include "sigpc_skip.h"
