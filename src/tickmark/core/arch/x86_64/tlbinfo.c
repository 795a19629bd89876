/* TLB geometry from cpuid: Intel's leaf 0x18 (deterministic address translation parameters),
 * else AMD's leaves 0x80000005/6 (L1 and L2 TLB, 4 KiB and 2 MiB pages). Hypervisors often
 * leave these leaves empty; "tlb_src" then says so. Leaf 2's one-byte descriptors are not
 * decoded: current Intel cores answer 0xfe there ("see leaf 0x18"). */
#include <cpuid.h>

#include "runner.h"

static void entry(tm_json *j, int level, const char *type, int page_kb, unsigned entries, unsigned ways)
{
    tm_json_open(j, NULL, '{');
    tm_json_int(j, "level", level);
    tm_json_str(j, "type", type);
    tm_json_int(j, "page_kb", page_kb);
    tm_json_uint(j, "entries", entries);
    tm_json_uint(j, "ways", ways);
    tm_json_close(j, '}');
}

static int intel_0x18(tm_json *j)
{
    static const char *types[] = {"", "data", "instruction", "unified", "load", "store"};
    static const int pages_kb[] = {4, 2048, 4096, 1048576};
    unsigned a, b, c, d, max, s, n = 0;
    int k;
    if ((unsigned)__get_cpuid_max(0, 0) < 0x18u)
        return 0;
    __cpuid_count(0x18, 0, max, b, c, d);
    for (s = 0; s <= max && s < 64; s++) {
        unsigned type;
        __cpuid_count(0x18, s, a, b, c, d);
        type = d & 31;
        if (type == 0 || type > 5 || type == 2)
            continue;
        for (k = 0; k < 4; k++)
            if (b & (1u << k)) {
                if (!n++)
                    tm_json_open(j, "tlb", '[');
                entry(j, (d >> 5) & 7, types[type], pages_kb[k], (b >> 16) * c, (d >> 8) & 1 ? (b >> 16) * c : b >> 16);
            }
    }
    if (n) {
        tm_json_close(j, ']');
        tm_json_str(j, "tlb_src", "cpuid 0x18");
    }
    return n > 0;
}

/* AMD's 4-bit L2 associativity code -> ways (0xf: fully associative, given as 0) */
static unsigned amd_ways(unsigned code)
{
    static const unsigned w[16] = {0, 1, 2, 3, 4, 5, 6, 8, 0, 16, 0, 32, 48, 64, 96, 0};
    return w[code & 15];
}

static int amd_ext(tm_json *j)
{
    unsigned a, b, c, d, n = 0;
    unsigned l1[2], l2[2];
    if ((unsigned)__get_cpuid_max(0x80000000u, 0) < 0x80000006u)
        return 0;
    __cpuid(0x80000005, a, b, c, d);
    l1[0] = b; /* 4 KiB: [31:24] ways, [23:16] entries (data) */
    l1[1] = a; /* 2 MiB */
    __cpuid(0x80000006, a, b, c, d);
    l2[0] = b; /* 4 KiB: [31:28] ways code, [27:16] entries (data) */
    l2[1] = a;
    for (int k = 0; k < 2; k++)
        if ((l1[k] >> 16) & 0xff) {
            if (!n++)
                tm_json_open(j, "tlb", '[');
            entry(j, 1, "data", k ? 2048 : 4, (l1[k] >> 16) & 0xff, l1[k] >> 24);
        }
    for (int k = 0; k < 2; k++)
        if ((l2[k] >> 16) & 0xfff) {
            if (!n++)
                tm_json_open(j, "tlb", '[');
            entry(j, 2, "data", k ? 2048 : 4, (l2[k] >> 16) & 0xfff, amd_ways(l2[k] >> 28));
        }
    if (n) {
        tm_json_close(j, ']');
        tm_json_str(j, "tlb_src", "cpuid 0x80000005/6");
    }
    return n > 0;
}

void tm_arch_tlb_json(tm_json *j)
{
    if (!intel_0x18(j) && !amd_ext(j))
        tm_json_str(j, "tlb_src",
                    "none: cpuid leaves 0x18 and 0x80000005/6 report no TLB (often so under a hypervisor)");
}
