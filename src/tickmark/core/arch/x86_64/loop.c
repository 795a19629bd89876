/* The control loop on x86-64: two instructions per iteration, a count-down that sets the flags
 * (dec) and a branch back while not zero (jnz), at every -O level. */
#include "runner.h"

void tm_control_loop(uint64_t n)
{
    __asm__ __volatile__("test %0, %0\n\t"
                         "jz 2f\n"
                         "1:\tdec %0\n\t"
                         "jnz 1b\n"
                         "2:"
                         : "+r"(n)
                         :
                         : "cc", "memory");
}
