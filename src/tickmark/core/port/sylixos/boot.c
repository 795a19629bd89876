/* The image's entry: the BSP's start-up (the reset handler of its vector table) calls cache
 * routines that push to the stack before it sets one, and QEMU starts the CPU with SP = 0 (a
 * boot loader would have left a valid one). So the entry sets a stack first, in the board's RAM
 * above what the BSP uses (its configuration maps the first 512 MiB of the 1 GiB), then goes to
 * the BSP's vector table, where its link script puts it (BSP_CFG_RAM_BASE, the start of the
 * image), as a boot loader would, with r0 = 0. */
void tm_sylixos_boot(void);

__attribute__((naked, target("arm"))) void tm_sylixos_boot(void)
{
    __asm__ volatile("ldr sp, =0x7fff0000\n\t"
                     "mov r0, #0\n\t"
                     "ldr pc, =0x40000000\n\t"
                     ".ltorg\n\t");
}
