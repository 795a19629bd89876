/* Nothing extra to do in a benchmark's child process on plain POSIX, and no signal when the
 * parent dies (Linux has one: port/linux/child.c). */
void tm_os_child_init(void);
void tm_os_child_init(void) {}
void tm_os_parent_death_signal(int sig);
void tm_os_parent_death_signal(int sig) { (void)sig; }
