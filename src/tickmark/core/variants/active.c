/* The routine table in effect: libc's, with any routine the user's variant file defines
 * (weak symbols tm_user_*) put in its place. */
#include <string.h>

#include "tickmark/memfn.h"

#define TM_WEAK __attribute__((weak))
TM_WEAK void *tm_user_memcpy(void *dst, const void *src, size_t n);
TM_WEAK void *tm_user_memmove(void *dst, const void *src, size_t n);
TM_WEAK void *tm_user_memset(void *dst, int c, size_t n);
TM_WEAK int tm_user_memcmp(const void *a, const void *b, size_t n);
TM_WEAK size_t tm_user_strlen(const char *s);
TM_WEAK int tm_user_strcmp(const char *a, const char *b);
TM_WEAK char *tm_user_strcpy(char *dst, const char *src);

static const tm_memfns libc_fns = {"libc", memcpy, memmove, memset, memcmp, strlen, strcmp, strcpy};

const tm_memfns *tm_memfns_libc(void) { return &libc_fns; }

const tm_memfns *tm_memfns_user(void)
{
    static tm_memfns user;
    user.name = "user";
    user.memcpy_fn = tm_user_memcpy;
    user.memmove_fn = tm_user_memmove;
    user.memset_fn = tm_user_memset;
    user.memcmp_fn = tm_user_memcmp;
    user.strlen_fn = tm_user_strlen;
    user.strcmp_fn = tm_user_strcmp;
    user.strcpy_fn = tm_user_strcpy;
    if (!user.memcpy_fn && !user.memmove_fn && !user.memset_fn && !user.memcmp_fn &&
        !user.strlen_fn && !user.strcmp_fn && !user.strcpy_fn)
        return NULL;
    return &user;
}

const tm_memfns *tm_memfns_active(void)
{
    static tm_memfns active;
    const tm_memfns *user = tm_memfns_user();
    if (!user)
        return &libc_fns;
    active = libc_fns;
    active.name = "user";
    if (user->memcpy_fn) active.memcpy_fn = user->memcpy_fn;
    if (user->memmove_fn) active.memmove_fn = user->memmove_fn;
    if (user->memset_fn) active.memset_fn = user->memset_fn;
    if (user->memcmp_fn) active.memcmp_fn = user->memcmp_fn;
    if (user->strlen_fn) active.strlen_fn = user->strlen_fn;
    if (user->strcmp_fn) active.strcmp_fn = user->strcmp_fn;
    if (user->strcpy_fn) active.strcpy_fn = user->strcpy_fn;
    return &active;
}
