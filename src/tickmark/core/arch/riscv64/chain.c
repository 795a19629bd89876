/* The core-frequency chains on RISC-V: addi (src/chain_asm.h). */
#define TM_CHAIN_ADD "addi %0, %0, 1"
#include "chain_asm.h"
