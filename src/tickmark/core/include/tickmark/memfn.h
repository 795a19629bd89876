/* The memory/string routine table.
 *
 * Benchmarks that move or compare memory (memfn.*, cpu.stringsort, bandwidth) call the routines
 * through this table instead of libc directly, so that a variant build can swap in another
 * implementation. A user implementation is a C or assembly file that defines any of
 * tm_user_memcpy, tm_user_memmove, tm_user_memset, tm_user_memcmp, tm_user_strlen,
 * tm_user_strcmp, tm_user_strcpy with the libc signatures; the build links it in
 * (make MEMFN=file.c, or tickmark --memfn file.c) and the routines it defines become active.
 */
#ifndef TICKMARK_MEMFN_H
#define TICKMARK_MEMFN_H

#include <stddef.h>

typedef struct tm_memfns {
    const char *name;
    void *(*memcpy_fn)(void *dst, const void *src, size_t n);
    void *(*memmove_fn)(void *dst, const void *src, size_t n);
    void *(*memset_fn)(void *dst, int c, size_t n);
    int (*memcmp_fn)(const void *a, const void *b, size_t n);
    size_t (*strlen_fn)(const char *s);
    int (*strcmp_fn)(const char *a, const char *b);
    char *(*strcpy_fn)(char *dst, const char *src);
} tm_memfns;

/* The routines in effect for this build: the user's where supplied, libc's otherwise. */
const tm_memfns *tm_memfns_active(void);

/* The libc routines, and the user's (NULL entries where the user file defines none;
 * tm_memfns_user() returns NULL when the build has no user file at all). */
const tm_memfns *tm_memfns_libc(void);
const tm_memfns *tm_memfns_user(void);

/* A plain bytewise reference (ref) and a word-at-a-time C version (word), in variants/. */
const tm_memfns *tm_memfns_ref(void);
const tm_memfns *tm_memfns_word(void);

/* The implementations side by side, numbered as the memfn.* benchmarks' `impl` parameter:
 * 0 libc, 1 ref, 2 word, 3 user. NULL for an unknown number, or 3 without a user file. */
enum { TM_MEMFN_IMPLS = 4 };
const tm_memfns *tm_memfns_impl(int idx);

/* Check routine `fn` ("memcpy", "memmove", "memset", "memcmp", "strlen", "strcmp", "strcpy")
 * of `f` against the reference semantics over randomised sizes, alignments and overlaps,
 * including bytes outside the destination and the return value. 0 when every case is right;
 * -1 with the first failing case described in msg, e.g.
 * "memcpy[user] wrong at size 37 src+3 dst+1: byte 12 is 0x00, expected 0x5a". */
int tm_memfns_verify(const tm_memfns *f, const char *fn, char *msg, size_t len);

#endif
