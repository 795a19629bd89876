/* The core-frequency chains on AArch64: add (src/chain_asm.h). */
#define TM_CHAIN_ADD "add %0, %0, #1"
#include "chain_asm.h"
