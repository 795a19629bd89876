/* Signals for the signal benchmarks (osal_prim.h): sigaction, kill and raise with SIGUSR1/SIGUSR2. */
#include <signal.h>
#include <string.h>
#include <sys/types.h>

#include "tickmark/osal_prim.h"

static int native_sig(int tm_sig)
{
    switch (tm_sig) {
    case TM_SIG_USR1: return SIGUSR1;
    case TM_SIG_USR2: return SIGUSR2;
    default: return -1;
    }
}

int tm_os_sig_install(int tm_sig, void (*handler)(int))
{
    struct sigaction sa;
    int sig = native_sig(tm_sig);
    if (sig < 0)
        return -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL);
}

int tm_os_sig_default(int tm_sig)
{
    struct sigaction sa;
    int sig = native_sig(tm_sig);
    if (sig < 0)
        return -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL);
}

int tm_os_sig_send(tm_os_pid pid, int tm_sig)
{
    int sig = native_sig(tm_sig);
    return sig < 0 ? -1 : kill(pid, sig);
}

int tm_os_sig_raise(int tm_sig)
{
    int sig = native_sig(tm_sig);
    return sig < 0 ? -1 : raise(sig);
}
