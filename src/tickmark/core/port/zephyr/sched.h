/* Zephyr 2.7 has no <sched.h>: its POSIX layer declares sched_yield (and the scheduling
 * policies) in <posix_sched.h>, which needs the kernel's header first. */
#ifndef TM_ZEPHYR_SCHED_H
#define TM_ZEPHYR_SCHED_H

#include <kernel.h>
#include <posix_sched.h>

#endif
