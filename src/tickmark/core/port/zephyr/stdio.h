/* Zephyr's minimal C library has the console half of <stdio.h> (printf, fputs, fwrite to the
 * console UART); the core also opens files (an arguments file, a program to exec) and sets and
 * flushes stdout's buffering. This adds those declarations over the C library's header; libc.c
 * implements them for a system with no file system: nothing opens, and the console is written
 * as it is printed (nothing to buffer or flush). */
#ifndef TM_ZEPHYR_STDIO_H
#define TM_ZEPHYR_STDIO_H

#include_next <stdio.h>

#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

FILE *fopen(const char *path, const char *mode);
int fclose(FILE *f);
size_t fread(void *buf, size_t size, size_t n, FILE *f);
int getc(FILE *f);
char *fgets(char *s, int n, FILE *f);
int fflush(FILE *f);
int ferror(FILE *f);
int setvbuf(FILE *f, char *buf, int mode, size_t size);

#endif
