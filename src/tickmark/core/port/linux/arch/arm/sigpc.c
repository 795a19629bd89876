/* The saved program counter of a signal handler's context on Linux/arm. */
#define TM_SIGPC uc_mcontext.arm_pc
#include "sigpc_skip.h"
