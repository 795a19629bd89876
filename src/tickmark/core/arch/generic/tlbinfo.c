/* TLB geometry from the processor: none where user code cannot ask (the OS may still say). */
#include "runner.h"

void tm_arch_tlb_json(tm_json *j) { (void)j; }
