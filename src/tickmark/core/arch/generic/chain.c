/* The dependent add chains of the core-frequency estimate, in C: a machine word added to itself
 * (never a constant, which a renamer may fold), whose result the compiler must produce before the
 * next (a word: on a 32-bit core a 64-bit add is two instructions). Optimised builds keep the
 * value in a register (one cycle per add); at -O0 it goes through memory and the estimate comes out
 * several times too low, which the architectures with their own chain.c avoid. */
#include "runner.h"

#define DEP_ADD(x) do { x += x; __asm__ __volatile__("" : "+r"(x)); } while (0)
#define DEP10(x) DEP_ADD(x); DEP_ADD(x); DEP_ADD(x); DEP_ADD(x); DEP_ADD(x); \
                 DEP_ADD(x); DEP_ADD(x); DEP_ADD(x); DEP_ADD(x); DEP_ADD(x)
#define DEP50(x) DEP10(x); DEP10(x); DEP10(x); DEP10(x); DEP10(x)

uint64_t tm_arch_chain50(uint64_t n)
{
    unsigned long x = (unsigned long)tm_opaque(0);
    while (n--) {
        DEP50(x);
    }
    return x;
}

uint64_t tm_arch_chain250(uint64_t n)
{
    unsigned long x = (unsigned long)tm_opaque(0);
    while (n--) {
        DEP50(x); DEP50(x); DEP50(x); DEP50(x); DEP50(x);
    }
    return x;
}
