/* Zephyr starts the application's main() in its main thread (CONFIG_MAIN_STACK_SIZE in
 * app/prj.conf): the core's entry, the NuttX port's entry.c (arguments and exit status through
 * semihosting, records on the console). */
int tickmark_main(int argc, char **argv);

void main(void) { tickmark_main(0, (char **)0); }
