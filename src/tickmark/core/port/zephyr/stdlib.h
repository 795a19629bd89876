/* Declarations beyond Zephyr's minimal C library that the core uses: qsort and _Exit (from
 * picolibc's C library, linked after Zephyr's: LIBS in port.mk). */
#ifndef TM_ZEPHYR_STDLIB_H
#define TM_ZEPHYR_STDLIB_H

#include_next <stdlib.h>

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void _Exit(int status);

#endif
