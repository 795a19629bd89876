/* SylixOS starts the BSP's first user thread, t_main, once the kernel is up (bspInit.c): it runs
 * the core (port/nuttx/entry.c's tickmark_main: the command line and the exit status through
 * semihosting). */
#include <stddef.h>

int tickmark_main(int argc, char **argv);
int t_main(void);

int t_main(void) { return tickmark_main(0, NULL); }
