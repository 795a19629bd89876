/* The core-frequency chains on x86-64: addq of a register to itself (src/chain_asm.h). */
#define TM_CHAIN_ADD "addq %0, %0"
#include "chain_asm.h"
