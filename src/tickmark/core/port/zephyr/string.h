/* Declarations beyond Zephyr's minimal C library that the core uses: strtok (libc.c, over the
 * library's strtok_r). */
#ifndef TM_ZEPHYR_STRING_H
#define TM_ZEPHYR_STRING_H

#include_next <string.h>

char *strtok(char *s, const char *sep);

#endif
