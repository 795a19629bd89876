/* The program's entry on NuttX: the kernel starts tickmark_main as its first task
 * (CONFIG_INIT_ENTRYPOINT in port/nuttx/benchmark.config; no shell). Under QEMU or a debugger
 * (TM_NX_SEMIHOST=1, the default) the core's command line comes through semihosting, a long
 * one as "@FILE" whose lines are read from the host the same way, and the core's exit status
 * ends the machine through semihosting; the records go to NuttX's console (the board's UART).
 * Built with TM_NX_SEMIHOST=0 for a board without a debugger, the arguments are the port's
 * (tm_port_args: TM_BUILTIN_ARGS) and the task just ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "runner.h"

#ifndef TM_NX_SEMIHOST
#define TM_NX_SEMIHOST 1
#endif

enum { SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_READ = 0x06, SYS_FLEN = 0x0c, SYS_GET_CMDLINE = 0x15,
       SYS_EXIT_EXTENDED = 0x20 };
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define MAX_ARGS (TM_MAX_GLOBS + 2 * TM_MAX_ITERS + 2 * TM_MAX_OVERRIDES + 32)

int tickmark_main(int argc, char **argv);

static char *args[MAX_ARGS];

/* Split text in place at any of the separators into args[from...] -> the count of args. */
static int split(char *text, const char *sep, int from)
{
    int n = from;
    char *p;
    for (p = strtok(text, sep); p && n < MAX_ARGS - 1; p = strtok(NULL, sep))
        args[n++] = p;
    args[n] = NULL;
    return n;
}

/* The host file's whole text (NUL-terminated, allocated), or NULL. */
static char *host_file(const char *path)
{
    uintptr_t open_block[3] = {(uintptr_t)path, 0 /* "r" */, strlen(path)}, block[3];
    intptr_t h = tm_nx_semihost(SYS_OPEN, open_block), len;
    char *text = NULL;
    if (h < 0)
        return NULL;
    block[0] = (uintptr_t)h;
    len = tm_nx_semihost(SYS_FLEN, block);
    if (len >= 0 && (text = malloc((size_t)len + 1)) != NULL) {
        block[1] = (uintptr_t)text;
        block[2] = (uintptr_t)len;
        if (tm_nx_semihost(SYS_READ, block) != 0) { /* the count of bytes not read */
            free(text);
            text = NULL;
        } else {
            text[len] = '\0';
        }
    }
    block[0] = (uintptr_t)h;
    tm_nx_semihost(SYS_CLOSE, block);
    return text;
}

/* The command line from the host (the arguments, without a program name, as QEMU's
 * -semihosting-config arg=... gives them) -> argc of args, or 0 when there is none. */
static int host_args(void)
{
    static char line[8192];
    uintptr_t block[2] = {(uintptr_t)line, sizeof line};
    char *text;
    int n;
    if (tm_nx_semihost(SYS_GET_CMDLINE, block) != 0)
        return 0;
    args[0] = "tickmark-core";
    n = split(line, " ", 1);
    if (n == 2 && args[1][0] == '@') { /* the arguments are the lines of a host file */
        if (!(text = host_file(args[1] + 1))) {
            fprintf(stderr, "tickmark-core: cannot read the arguments file %s from the host\n", args[1] + 1);
            return -1;
        }
        n = split(text, "\r\n", 1);
    }
    return n;
}

int tickmark_main(int argc, char **argv)
{
    int n = TM_NX_SEMIHOST ? host_args() : 0, rc;
    uintptr_t block[2];
    (void)argc;
    (void)argv;
    rc = n < 0 ? 2 : tm_main(n, args);
    fflush(stdout);
    fflush(stderr);
    if (TM_NX_SEMIHOST) {
        block[0] = ADP_STOPPED_APPLICATION_EXIT;
        block[1] = (uintptr_t)rc;
        tm_nx_semihost(SYS_EXIT_EXTENDED, block);
    }
    return rc;
}
