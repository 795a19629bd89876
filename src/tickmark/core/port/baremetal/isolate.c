/* No processes: each benchmark is called directly (the same as --no-fork elsewhere). There is no
 * time limit inside the program; the harness bounds the whole run. A fault ends the program
 * (picolibc's start-up code prints the fault and exits with status 1), and the harness reports
 * the benchmark that had started as crashed. (The scratch directory: scratch.c.) */
#include "runner.h"

int tm_os_run_isolated(void (*fn)(void *), void *arg, int timeout_s, char *detail, size_t len)
{
    (void)timeout_s;
    if (len)
        detail[0] = '\0';
    fn(arg);
    return TM_ISO_OK;
}
