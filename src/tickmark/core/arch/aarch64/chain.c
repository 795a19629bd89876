/* The core-frequency chains on AArch64: add of a register to itself (src/chain_asm.h). */
#define TM_CHAIN_ADD "add %0, %0, %0"
#include "chain_asm.h"
