/* The control loop in C, where the architecture has no loop of its own: a counted loop whose
 * body is only a compiler barrier. What it costs depends on the compiler and the -O level (a
 * 64-bit count takes several instructions on a 32-bit core); the architectures with their own
 * loop.c run the same count-down in two instructions at every -O level. */
#include "runner.h"

void tm_control_loop(uint64_t n)
{
    while (n--)
        tm_clobber();
}
