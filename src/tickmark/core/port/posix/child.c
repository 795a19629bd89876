/* Nothing extra to do in a benchmark's child process on plain POSIX. */
void tm_os_child_init(void);
void tm_os_child_init(void) {}
