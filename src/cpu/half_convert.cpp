// half_convert.cpp - bulk float16/bfloat16 <-> float32 conversion. float16 uses F16C (vcvtph2ps / vcvtps2ph
// with round-to-nearest-even) and bfloat16 AVX2 when the CPU reports them, compiled through target attributes so
// the library still runs on CPUs without them; the scalar loops of core/half.h are the fallback and reference.
#include "cpu/half_convert.h"
#include <immintrin.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace ct {
namespace {

#if defined(__x86_64__) || defined(__i386__)
#define CT_HAVE_F16C_PATH 1
__attribute__((target("avx,f16c"))) void f16c_to_float(const Half* src, float* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
    }
    for (; i < n; ++i) dst[i] = half_bits_to_float(src[i].bits);
}
__attribute__((target("avx,f16c"))) void f16c_from_float(const float* src, Half* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
    }
    for (; i < n; ++i) dst[i].bits = float_to_half_bits(src[i]);
}
// bfloat16 with AVX2: a widening shift, and round-to-nearest-even with a blend for NaN (quiet, sign kept).
__attribute__((target("avx2"))) void avx2_bf16_to_float(const BFloat16* src, float* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i)));
        _mm256_storeu_ps(dst + i, _mm256_castsi256_ps(_mm256_slli_epi32(w, 16)));
    }
    for (; i < n; ++i) dst[i] = bfloat16_bits_to_float(src[i].bits);
}
__attribute__((target("avx2"))) void avx2_bf16_from_float(const float* src, BFloat16* dst, int64_t n) {
    const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7fff), quiet = _mm256_set1_epi32(0x40);
    const __m256i abs_mask = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i x = _mm256_castps_si256(_mm256_loadu_ps(src + i));
        __m256i hi = _mm256_srli_epi32(x, 16);
        __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(x, _mm256_add_epi32(bias, _mm256_and_si256(hi, one))), 16);
        __m256i is_nan = _mm256_cmpgt_epi32(_mm256_and_si256(x, abs_mask), inf);
        __m256i r = _mm256_blendv_epi8(rounded, _mm256_or_si256(hi, quiet), is_nan);
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0xD8);  // 16-bit values in order
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm256_castsi256_si128(packed));
    }
    for (; i < n; ++i) dst[i].bits = float_to_bfloat16_bits(src[i]);
}
// CPU features through cpuid (clang's __builtin_cpu_supports knows no "f16c"): AVX state saved by the OS
// (OSXSAVE + XCR0 bits 1-2), then F16C (leaf 1 ecx bit 29) or AVX2 (leaf 7 ebx bit 5).
bool os_has_avx() {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !(c & (1u << 28))) return false;
    uint32_t lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & 6u) == 6u;
}
bool detect_f16c() {
    unsigned a, b, c, d;
    return os_has_avx() && __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
}
bool detect_avx2() {
    unsigned a, b, c, d;
    return os_has_avx() && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 5));
}
#else
#define CT_HAVE_F16C_PATH 0
bool detect_f16c() { return false; }
bool detect_avx2() { return false; }
#endif

const bool kUseF16C = detect_f16c();
const bool kUseAVX2 = detect_avx2();

}  // namespace

bool half_convert_uses_f16c() { return kUseF16C; }

void convert_to_float(const Half* src, float* dst, int64_t n) {
#if CT_HAVE_F16C_PATH
    if (kUseF16C) return f16c_to_float(src, dst, n);
#endif
    for (int64_t i = 0; i < n; ++i) dst[i] = half_bits_to_float(src[i].bits);
}

void convert_from_float(const float* src, Half* dst, int64_t n) {
#if CT_HAVE_F16C_PATH
    if (kUseF16C) return f16c_from_float(src, dst, n);
#endif
    for (int64_t i = 0; i < n; ++i) dst[i].bits = float_to_half_bits(src[i]);
}

// bfloat16: AVX2 where present, else the scalar shifts.
void convert_to_float(const BFloat16* src, float* dst, int64_t n) {
#if CT_HAVE_F16C_PATH
    if (kUseAVX2) return avx2_bf16_to_float(src, dst, n);
#endif
    for (int64_t i = 0; i < n; ++i) dst[i] = bfloat16_bits_to_float(src[i].bits);
}

void convert_from_float(const float* src, BFloat16* dst, int64_t n) {
#if CT_HAVE_F16C_PATH
    if (kUseAVX2) return avx2_bf16_from_float(src, dst, n);
#endif
    for (int64_t i = 0; i < n; ++i) {
        const uint32_t x = float_bits(src[i]);
        const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
        const uint32_t quiet_nan = (x >> 16) | 0x40u;
        dst[i].bits = (uint16_t)((x & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded);
    }
}

}  // namespace ct
