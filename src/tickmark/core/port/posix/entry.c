/* The program's entry on an OS with processes: main() is the core's command line. An RTOS port
 * replaces this file with one that starts the core in a task (see port/freertos/entry.c). */
#include "runner.h"

int main(int argc, char **argv) { return tm_main(argc, argv); }
