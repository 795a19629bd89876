/* Kernel entry (trap.*) on SylixOS, through the kernel's own exception vectors (the BSP's
 * startup.S). The core is a kernel thread in the system mode, so:
 *   call   svc #0 enters SylixOS's SWI entry (archSwiEntry: r0-r12 and the return address saved,
 *          archSwiHandle, which answers 0 in r0, all restored) and returns past the svc;
 *   irq    the software interrupt of irq.* (port/sylixos/irq.c), with a handler that counts it:
 *          SylixOS's interrupt entry, dispatch and exit around the count.
 * A data abort or an undefined instruction in a thread goes to the kernel's abort handling
 * (API_VmmAbortIsr), which runs a fail shell on the thread's stack that signals the thread
 * (SIGSEGV, SIGBUS, SIGILL) or ends it: there is no handler to return past the instruction
 * without the signal machinery, which this port leaves out, so those two kinds skip. */
#include "irqline.h"
#include "runner.h"
#include "tickmark/osal.h"

static volatile uint32_t taken;
static volatile void *raise_reg;
static uint32_t raise_value;

static void count_it(void) { taken++; }

const char *tm_os_trap_open(int kind)
{
    if (tm_arch_trap_call(0, 0) < 0)
        return "no kernel-entry loops for this CPU (arch/<arch>/trap.c)";
    switch (kind) {
    case TM_TRAP_CALL:
        return NULL;
    case TM_TRAP_IRQ:
        return tm_sy_irq_connect(count_it, &raise_reg, &raise_value);
    case TM_TRAP_ABORT:
        return "SylixOS sends a thread's data abort through its abort handling (API_VmmAbortIsr: a "
               "signal or the thread's end), never back past the load; the port delivers no signals";
    default:
        return "SylixOS sends a thread's undefined instruction through its abort handling "
               "(API_VmmAbortIsr: SIGILL or the thread's end), never back past it; the port delivers no signals";
    }
}

const char *tm_os_trap_run(int kind, uint64_t n)
{
    if (kind == TM_TRAP_CALL) {
        tm_arch_trap_call(n, 0);
        return NULL;
    }
    taken = 0;
    tm_arch_trap_store(n, raise_reg, raise_value);
    return taken != (uint32_t)n ? "the handler took fewer interrupts than were raised" : NULL;
}

void tm_os_trap_close(int kind)
{
    if (kind == TM_TRAP_IRQ)
        tm_sy_irq_disconnect();
}
