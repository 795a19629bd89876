/* The program's entry on bare metal: picolibc's start-up code calls main() with the command
 * line it read through semihosting (none with a UART console), and main() is the core's. */
#include "runner.h"

int main(int argc, char **argv) { return tm_main(argc, argv); }
