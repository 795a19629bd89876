/* The saved program counter of a signal handler's context on Linux/riscv64. */
#define TM_SIGPC uc_mcontext.__gregs[REG_PC]
#include "sigpc_skip.h"
