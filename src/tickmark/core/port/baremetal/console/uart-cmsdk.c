/* Console on an ARM CMSDK UART (the MPS2 boards' UART0) instead of semihosting, for a board
 * without a debugger: stdout and stderr are written to the UART (polled), the program's exit
 * ends in a low-power loop, and no file can be opened. The UART is at TM_BM_UART_ADDR (the
 * board description's BM_UART_ADDR); the baud-rate divider is left as the boot code set it,
 * or set to 16 when it is 0 (QEMU). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define REG(off) (*(volatile uint32_t *)(uintptr_t)(TM_BM_UART_ADDR + (off)))
#define DATA 0x00u
#define STATE 0x04u /* bit 0: transmit buffer full */
#define CTRL 0x08u  /* bit 0: transmit enable */
#define BAUDDIV 0x10u

static int uart_putc(char c, FILE *f)
{
    (void)f;
    if (!(REG(CTRL) & 1u)) {
        if (REG(BAUDDIV) == 0)
            REG(BAUDDIV) = 16u;
        REG(CTRL) |= 1u;
    }
    while (REG(STATE) & 1u)
        ;
    REG(DATA) = (uint8_t)c;
    return (unsigned char)c;
}

static FILE uart = FDEV_SETUP_STREAM(uart_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &uart;
FILE *const stdout = &uart;
FILE *const stderr = &uart;

/* No file system: the C library's file calls fail (the core's @FILE arguments need one). */
int open(const char *path, int flags, ...)
{
    (void)path;
    (void)flags;
    return -1;
}

int close(int fd)
{
    (void)fd;
    return -1;
}

ssize_t read(int fd, void *buf, size_t n)
{
    (void)fd;
    (void)buf;
    (void)n;
    return -1;
}

ssize_t write(int fd, const void *buf, size_t n)
{
    (void)fd;
    (void)buf;
    (void)n;
    return -1;
}

off_t lseek(int fd, off_t off, int whence)
{
    (void)fd;
    (void)off;
    (void)whence;
    return -1;
}

void _exit(int code);
void _exit(int code)
{
    (void)code;
    for (;;)
        __asm__ __volatile__("wfi");
}
