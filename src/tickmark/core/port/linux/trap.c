/* Kernel entry on Linux (trap.*): the kernel's own path for each way in, made by the CPU's
 * instructions in the control loop's shape (arch/<arch>/trap.c):
 *   call   getppid by the system-call instruction itself (no C library in between)
 *   abort  a load from a page mapped PROT_NONE: SIGSEGV, whose handler (SA_SIGINFO) keeps
 *          si_addr, the fault address, and moves the saved PC past the load
 *          (port/linux/arch/<arch>/sigpc.c); a fault at any other address is not the
 *          benchmark's: the handler steps aside and the program dies of it, as it would have
 *   undef  an undefined instruction: SIGILL, handled the same way
 *   irq    none: user space has no way to raise an interrupt (signal.catch, a signal sent to
 *          itself, is the nearest figure) */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner.h"
#include "sigpc.h"
#include "tickmark/osal.h"

static void *page;
static volatile uintptr_t fault_addr;
static struct sigaction saved;

static int signal_of(int kind) { return kind == TM_TRAP_ABORT ? SIGSEGV : SIGILL; }

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    if (sig == SIGSEGV && (char *)si->si_addr != (char *)page) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(SIGSEGV, &dfl, NULL); /* not ours: the load happens again and the program dies of it */
        return;
    }
    fault_addr = (uintptr_t)si->si_addr;
    tm_linux_pc_skip(uc, tm_arch_trap_insn_bytes);
}

const char *tm_os_trap_open(int kind)
{
    struct sigaction sa;
    if (tm_arch_trap_call(0, 0) < 0)
        return "no kernel-entry loops for this CPU (arch/<arch>/trap.c)";
    if (kind == TM_TRAP_CALL)
        return NULL;
    if (kind == TM_TRAP_IRQ)
        return "user space cannot raise an interrupt (signal.catch, a signal to itself, is the nearest)";
    if (tm_linux_pc_skip(NULL, 0) < 0)
        return "no signal-context program counter known for this CPU (port/linux/arch/<arch>/sigpc.c)";
    if (kind == TM_TRAP_ABORT) {
        page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED) {
            page = NULL;
            return "mmap of a PROT_NONE page failed";
        }
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(signal_of(kind), &sa, &saved) != 0)
        return "sigaction failed";
    return NULL;
}

const char *tm_os_trap_run(int kind, uint64_t n)
{
    switch (kind) {
    case TM_TRAP_CALL:
        tm_arch_trap_call(n, SYS_getppid);
        return NULL;
    case TM_TRAP_ABORT:
        fault_addr = 0;
        tm_arch_trap_load(n, page);
        return n && fault_addr != (uintptr_t)page ? "the load from the PROT_NONE page did not fault" : NULL;
    default:
        tm_arch_trap_undef(n);
        return NULL;
    }
}

void tm_os_trap_close(int kind)
{
    if (kind == TM_TRAP_ABORT || kind == TM_TRAP_UNDEF)
        sigaction(signal_of(kind), &saved, NULL);
    if (kind == TM_TRAP_ABORT && page) {
        munmap(page, 4096);
        page = NULL;
    }
}
