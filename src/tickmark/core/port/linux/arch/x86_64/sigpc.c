/* The saved program counter of a signal handler's context on Linux/x86_64. */
#define TM_SIGPC uc_mcontext.gregs[REG_RIP]
#include "sigpc_skip.h"
