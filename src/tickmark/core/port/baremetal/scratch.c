/* No file system, so no scratch directory: the benchmarks that need files skip. */
#include "runner.h"

void tm_os_scratch_clean(void) {}
const char *tm_os_scratch_dir(void) { return NULL; }
