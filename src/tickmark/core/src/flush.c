/* The cache flush the ports share (osal.h's tm_os_flush_caches): read one byte of every 32-byte
 * line of a buffer larger than the caches, so that what they held of the benchmark (its data,
 * and through a unified or inclusive level its code) is evicted, and the TLB entries of its pages
 * with it (the buffer is advised against huge pages). The buffer is mapped on the first flush,
 * every page written once, and kept for the process. */
#include <stdio.h>

#include "runner.h"
#include "tickmark/osal.h"

#define TM_FLUSH_LINE 32 /* the smallest cache line of the CPUs the ports run on */

static volatile unsigned char *flush_buf;
static size_t flush_bytes;

static int flush_map(size_t bytes, char *how, size_t len)
{
    uint64_t avail = tm_os_mem_available();
    size_t i, page = tm_os_page_size();
    char want[24], have[24];
    if (avail && bytes > avail / 4) {
        snprintf(how, len, "a flush would read %s, more than a quarter of the %s of free memory",
                 tm_size_text(bytes, want, sizeof want), tm_size_text(avail, have, sizeof have));
        return -1;
    }
    if (flush_buf)
        tm_os_unmap((void *)flush_buf, flush_bytes);
    flush_buf = tm_os_map(bytes);
    flush_bytes = flush_buf ? bytes : 0;
    if (!flush_buf) {
        snprintf(how, len, "cannot map the %s buffer a flush reads", tm_size_text(bytes, want, sizeof want));
        return -1;
    }
    tm_os_huge_advise((void *)flush_buf, bytes, 0);
    for (i = 0; i < bytes; i += page ? page : 4096)
        flush_buf[i] = 1;
    return 0;
}

const char *tm_size_text(uint64_t bytes, char *buf, size_t len)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(buf, len, "%lu MiB", (unsigned long)(bytes >> 20));
    else
        snprintf(buf, len, "%lu KiB", (unsigned long)(bytes >> 10));
    return buf;
}

int tm_flush_walk(size_t bytes, const char *sized_by, char *how, size_t len)
{
    size_t i;
    unsigned sum = 0;
    char size[24];
    if (bytes > flush_bytes && flush_map(bytes, how, len) != 0)
        return -1;
    for (i = 0; i < bytes; i += TM_FLUSH_LINE)
        sum += flush_buf[i];
    tm_sink += sum;
    snprintf(how, len, "read %s: %s", tm_size_text(bytes, size, sizeof size), sized_by);
    return 0;
}
