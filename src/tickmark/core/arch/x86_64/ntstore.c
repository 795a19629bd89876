/* Non-temporal stores on x86-64: movntdq (SSE2, present on every x86-64), 64 bytes per loop
 * step, then sfence so the weakly ordered stores are visible before the call returns. */
#include <emmintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../../bench/mem/memutil.h"

__attribute__((target("sse2"))) int tm_arch_nt_fill(void *dst, size_t n, uint64_t v)
{
    __m128i x = _mm_set1_epi64x((long long)v);
    char *d = dst;
    size_t i;
    for (i = 0; i < n; i += 64) {
        _mm_stream_si128((__m128i *)(d + i), x);
        _mm_stream_si128((__m128i *)(d + i + 16), x);
        _mm_stream_si128((__m128i *)(d + i + 32), x);
        _mm_stream_si128((__m128i *)(d + i + 48), x);
    }
    _mm_sfence();
    return 0;
}

__attribute__((target("sse2"))) int tm_arch_nt_copy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    size_t i;
    for (i = 0; i < n; i += 64) {
        __m128i a = _mm_load_si128((const __m128i *)(s + i));
        __m128i b = _mm_load_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_load_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_load_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a);
        _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
    _mm_sfence();
    return 0;
}

const char *tm_arch_nt_name(void) { return "movntdq"; }
