/* The dependent add chains of the core-frequency estimate in assembly, for an architecture's
 * chain.c that defines TM_CHAIN_ADD (operand %0 added to itself, one cycle on every core of the
 * architecture; never an add of a constant, which a renamer may fold: Golden Cove runs a chain of
 * `add $1` at about six per cycle): 50 (250) such adds, each on the previous one's result, in one
 * asm statement, so that the value stays in a register at every optimisation level. Only the loop
 * counter around them may go through memory at -O0; the estimate takes the difference of the two
 * chains, so the loop's cost cancels. */
#include "runner.h"

uint64_t tm_arch_chain50(uint64_t n)
{
    uint64_t x = tm_opaque(0);
    while (n--)
        __asm__ __volatile__(".rept 50\n\t" TM_CHAIN_ADD "\n\t.endr" : "+r"(x));
    return x;
}

uint64_t tm_arch_chain250(uint64_t n)
{
    uint64_t x = tm_opaque(0);
    while (n--)
        __asm__ __volatile__(".rept 250\n\t" TM_CHAIN_ADD "\n\t.endr" : "+r"(x));
    return x;
}
