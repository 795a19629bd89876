/* tm_linux_pc_skip() for an architecture's sigpc.c that defines TM_SIGPC, the field of its
 * ucontext_t that holds the saved program counter (see sigpc.h). */
#include <signal.h>
#include <ucontext.h>

#include "sigpc.h"

int tm_linux_pc_skip(void *uc, unsigned bytes)
{
    if (uc)
        ((ucontext_t *)uc)->TM_SIGPC += bytes;
    return 0;
}
