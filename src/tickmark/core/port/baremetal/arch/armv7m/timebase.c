/* Cortex-M (ARMv7-M, ARMv8-M) time base, first that works of:
 *   1. DWT CYCCNT, the core's cycle counter (32 bits, at the core clock). Optional in the
 *      architecture and absent in QEMU, where it reads 0: it is enabled, then kept only if
 *      it moves.
 *   2. The board's free-running 32-bit up-counter (TM_BM_COUNTER_ADDR, e.g. the MPS2 FPGAIO
 *      COUNTER), if the board description names one and it moves.
 *   3. SysTick, the 24-bit down-counter every Cortex-M has, at the core clock (wraps every
 *      16.7 M cycles; read often enough, which a sample does).
 * The 32- and 24-bit counters are extended to 64 bits in software. */
#include "timebase.h"

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define DEMCR 0xE000EDFCu
#define DWT_CTRL 0xE0001000u
#define DWT_CYCCNT 0xE0001004u
#define DWT_LAR 0xE0001FB0u
#define SYST_CSR 0xE000E010u
#define SYST_RVR 0xE000E014u
#define SYST_CVR 0xE000E018u

static uint32_t last;
static uint64_t high;

static uint64_t read_dwt(void) { return tm_bm_extend(REG(DWT_CYCCNT), 32, &last, &high); }
static uint64_t read_board(void) { return tm_bm_extend(REG(TM_BM_COUNTER_ADDR), 32, &last, &high); }
static uint64_t read_systick(void) { return tm_bm_extend(0xFFFFFFu - REG(SYST_CVR), 24, &last, &high); }

static int moves(volatile uint32_t *reg)
{
    uint32_t a = *reg;
    volatile int i;
    for (i = 0; i < 2000; i++)
        ;
    return *reg != a;
}

void tm_bm_timebase_pick(tm_bm_timebase *tb)
{
    REG(DEMCR) |= 1u << 24; /* TRCENA: power the DWT */
    REG(DWT_LAR) = 0xC5ACCE55u; /* unlock (Cortex-M7) */
    REG(DWT_CYCCNT) = 0;
    REG(DWT_CTRL) |= 1u;
    last = 0;
    high = 0;
    if (moves(&REG(DWT_CYCCNT))) {
        tb->name = "dwt-cyccnt";
        tb->hz = TM_BM_CLOCK_HZ;
        tb->cycles = 1;
        tb->read = read_dwt;
    } else if (TM_BM_COUNTER_ADDR != 0 && moves(&REG(TM_BM_COUNTER_ADDR))) {
        tb->name = "board-counter";
        tb->hz = TM_BM_COUNTER_HZ;
        tb->cycles = 0;
        tb->read = read_board;
    } else {
        REG(SYST_RVR) = 0xFFFFFFu;
        REG(SYST_CVR) = 0;
        REG(SYST_CSR) = 5u; /* core clock, enabled, no interrupt */
        while (REG(SYST_CVR) == 0) /* the reload can take a moment to show */
            ;
        tb->name = "systick";
        tb->hz = TM_BM_CLOCK_HZ;
        tb->cycles = 0;
        tb->read = read_systick;
    }
    last = 0;
    high = 0;
    tb->read();
}
