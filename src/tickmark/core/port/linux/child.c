/* A benchmark's child process dies with the runner, so that nothing outlives a killed run. */
#include <signal.h>
#include <sys/prctl.h>

void tm_os_child_init(void);
void tm_os_child_init(void) { prctl(PR_SET_PDEATHSIG, SIGKILL); }
