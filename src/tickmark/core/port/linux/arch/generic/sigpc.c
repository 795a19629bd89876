/* The saved program counter of a signal handler's context: unknown for this CPU, so trap.abort
 * and trap.undef skip (a handler that cannot move past the instruction would fault forever). */
#include "sigpc.h"

int tm_linux_pc_skip(void *uc, unsigned bytes)
{
    (void)uc;
    (void)bytes;
    return -1;
}
