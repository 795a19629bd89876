/* The control loop on AArch64: two instructions per iteration, a count-down that sets the
 * flags (subs) and a branch back while not zero (b.ne), at every -O level. */
#include "runner.h"

void tm_control_loop(uint64_t n)
{
    __asm__ __volatile__("cbz %0, 2f\n"
                         "1:\tsubs %0, %0, #1\n\t"
                         "b.ne 1b\n"
                         "2:"
                         : "+r"(n)
                         :
                         : "cc", "memory");
}
