/* The core-frequency chains on x86-64: addq (src/chain_asm.h). */
#define TM_CHAIN_ADD "addq $1, %0"
#include "chain_asm.h"
