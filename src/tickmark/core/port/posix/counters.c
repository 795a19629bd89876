/* Event counters on plain POSIX: none (cycle figures then come from the calibrated frequency). */
#include "runner.h"

int tm_ctr_open(void) { return 0; }
int tm_ctr_open_for(long pid) { (void)pid; return 0; }
int tm_ctr_count(void) { return 0; }
const char *tm_ctr_name(int i) { (void)i; return ""; }
int tm_ctr_read(uint64_t *values) { (void)values; return 0; }
int tm_ctr_multiplexed(void) { return 0; }
int tm_ctr_kernel_excluded(void) { return 0; }
int tm_ctr_grouped(void) { return 0; }
int tm_ctr_cycles_index(void) { return -1; }
void tm_ctr_close(void) {}
const char *tm_ctr_source(void) { return "none"; }
const char *tm_ctr_unsupported(void) { return "all (no counter interface in this port)"; }
