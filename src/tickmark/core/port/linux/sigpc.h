/* The program counter in a Linux signal handler's saved context (port/linux/arch/<arch>/sigpc.c):
 * tm_linux_pc_skip(uc, bytes) moves it past the faulting instruction, so that the handler returns
 * after it. 0; -1 where this CPU has no file (arch/generic). With uc NULL it only says which. */
#ifndef TM_LINUX_SIGPC_H
#define TM_LINUX_SIGPC_H

int tm_linux_pc_skip(void *uc, unsigned bytes);

#endif
