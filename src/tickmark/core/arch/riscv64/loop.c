/* The control loop on RISC-V: two instructions per iteration, a count-down (addi) and a branch
 * back while not zero (bnez), at every -O level. */
#include "runner.h"

void tm_control_loop(uint64_t n)
{
    __asm__ __volatile__("beqz %0, 2f\n"
                         "1:\taddi %0, %0, -1\n\t"
                         "bnez %0, 1b\n"
                         "2:"
                         : "+r"(n)
                         :
                         : "memory");
}
