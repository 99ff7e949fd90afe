// half_convert.cpp - bulk float16/bfloat16 <-> float32 conversion. AVX-512F (16 lanes) where the CPU and OS have
// it, else float16 through F16C (vcvtph2ps / vcvtps2ph with round-to-nearest-even) and bfloat16 through AVX2, all
// compiled through target attributes so the library still runs on CPUs without them; the scalar loops of
// core/half.h are the fallback and the reference. float -> bfloat16 uses AVX512_BF16's vcvtne2ps2bf16 where the CPU
// has it (Note [bfloat16 rounding instruction]).
#include "cpu/half_convert.h"
#include "cpu/half_simd.h"
#include <cstdlib>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace ct {
namespace {

#if defined(__x86_64__) || defined(__i386__)
#define CT_HAVE_F16C_PATH 1
__attribute__((target("avx,f16c"))) void f16c_to_float(const Half* src, float* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, load8_as_float(src + i));
    for (; i < n; ++i) dst[i] = half_bits_to_float(src[i].bits);
}
__attribute__((target("avx,f16c"))) void f16c_from_float(const float* src, Half* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) store8_from_float(_mm256_loadu_ps(src + i), dst + i);
    for (; i < n; ++i) dst[i].bits = float_to_half_bits(src[i]);
}
__attribute__((target("avx2"))) void avx2_bf16_to_float(const BFloat16* src, float* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, load8_as_float(src + i));
    for (; i < n; ++i) dst[i] = bfloat16_bits_to_float(src[i].bits);
}
__attribute__((target("avx2"))) void avx2_bf16_from_float(const float* src, BFloat16* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) store16_from_float(_mm256_loadu_ps(src + i), _mm256_loadu_ps(src + i + 8), dst + i);
    for (; i + 8 <= n; i += 8) store8_from_float(_mm256_loadu_ps(src + i), dst + i);
    for (; i < n; ++i) dst[i].bits = float_to_bfloat16_bits(src[i]);
}
// The same four conversions 16 lanes wide (AVX-512F); the tails go through the scalar reference. The zero-masked
// intrinsics with every lane on (kAll) are the plain instructions: GCC 12's unmasked forms warn (-Wmaybe-uninitialized
// on their internal _mm512_undefined values).
constexpr __mmask16 kAll = 0xffff;
__attribute__((target("avx512f"))) void avx512_half_to_float(const Half* src, float* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(dst + i, _mm512_maskz_cvtph_ps(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i))));
    for (; i < n; ++i) dst[i] = half_bits_to_float(src[i].bits);
}
__attribute__((target("avx512f"))) void avx512_half_from_float(const float* src, Half* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i h = _mm512_maskz_cvtps_ph(kAll, _mm512_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), h);
    }
    for (; i < n; ++i) dst[i].bits = float_to_half_bits(src[i]);
}
__attribute__((target("avx512f"))) void avx512_bf16_to_float(const BFloat16* src, float* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i w = _mm512_maskz_cvtepu16_epi32(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)));
        _mm512_storeu_ps(dst + i, _mm512_castsi512_ps(_mm512_maskz_slli_epi32(kAll, w, 16)));
    }
    for (; i < n; ++i) dst[i] = bfloat16_bits_to_float(src[i].bits);
}
__attribute__((target("avx512f"))) void avx512_bf16_from_float(const float* src, BFloat16* dst, int64_t n) {
    const __m512i one = _mm512_set1_epi32(1), bias = _mm512_set1_epi32(0x7fff), quiet = _mm512_set1_epi32(0x40);
    const __m512i abs_mask = _mm512_set1_epi32(0x7fffffff), inf = _mm512_set1_epi32(0x7f800000);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i x = _mm512_castps_si512(_mm512_loadu_ps(src + i));
        __m512i hi = _mm512_maskz_srli_epi32(kAll, x, 16);
        __m512i rounded = _mm512_maskz_srli_epi32(kAll, _mm512_add_epi32(x, _mm512_add_epi32(bias, _mm512_and_si512(hi, one))), 16);
        __mmask16 is_nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(x, abs_mask), inf);
        __m512i r = _mm512_mask_blend_epi32(is_nan, rounded, _mm512_or_si512(hi, quiet));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm512_maskz_cvtepi32_epi16(kAll, r));  // values fit 16 bits
    }
    for (; i < n; ++i) dst[i].bits = float_to_bfloat16_bits(src[i]);
}
// Note [bfloat16 rounding instruction]: vcvtne2ps2bf16 rounds 32 floats to bfloat16 in one instruction, to nearest
// even, NaN quieted with its sign and payload's top bits kept - the reference's result - except for denormal
// inputs, which it treats as zero (the reference rounds them; the smallest ones do round to a nonzero bfloat16).
// So each block of 32 is tested for denormals first (exponent 0, mantissa nonzero; zeros are fine) and a block
// with any goes through the AVX-512F integer path. Measured on this Zen 4 CPU: the conversion alone 1.8-2x
// faster than the integer path in L1.
__attribute__((target("avx512f,avx512bf16"))) void avx512bf16_bf16_from_float(const float* src, BFloat16* dst,
                                                                             int64_t n) {
    const __m512i exponent = _mm512_set1_epi32(0x7f800000), mantissa = _mm512_set1_epi32(0x007fffff);
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 lo = _mm512_loadu_ps(src + i), hi = _mm512_loadu_ps(src + i + 16);
        const __m512i lo_bits = _mm512_castps_si512(lo), hi_bits = _mm512_castps_si512(hi);
        const __mmask16 lo_denormal =
            _mm512_mask_test_epi32_mask(_mm512_testn_epi32_mask(lo_bits, exponent), lo_bits, mantissa);
        const __mmask16 hi_denormal =
            _mm512_mask_test_epi32_mask(_mm512_testn_epi32_mask(hi_bits, exponent), hi_bits, mantissa);
        if (__builtin_expect((lo_denormal | hi_denormal) != 0, 0)) {
            avx512_bf16_from_float(src + i, dst + i, 32);
            continue;
        }
        const __m512bh packed = _mm512_cvtne2ps_pbh(hi, lo);  // lo's 16 values first, then hi's
        _mm512_storeu_si512(dst + i, (__m512i)packed);
    }
    avx512_bf16_from_float(src + i, dst + i, n - i);
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
// AVX-512F: the OS saves the opmask and ZMM state too (XCR0 bits 5-7), leaf 7 ebx bit 16.
bool detect_avx512f() {
    unsigned a, b, c, d;
    if (!os_has_avx() || !__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 16))) return false;
    uint32_t lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & 0xe0u) == 0xe0u;
}
// AVX512_BF16: leaf 7 subleaf 1 eax bit 5, on top of AVX-512F.
bool detect_avx512bf16() {
    unsigned a, b, c, d;
    return detect_avx512f() && __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 5));
}
#else
#define CT_HAVE_F16C_PATH 0
bool detect_f16c() { return false; }
bool detect_avx2() { return false; }
bool detect_avx512f() { return false; }
bool detect_avx512bf16() { return false; }
#endif

const bool kUseF16C = detect_f16c();
const bool kUseAVX2 = detect_avx2();
// The environment variables select the narrower paths for their tests (tests/CMakeLists.txt).
const bool kUseAVX512 = detect_avx512f() && std::getenv("CTENSOR_NO_AVX512") == nullptr;
const bool kUseAVX512BF16 = kUseAVX512 && detect_avx512bf16() && std::getenv("CTENSOR_NO_AVX512BF16") == nullptr;

}  // namespace

bool half_convert_uses_f16c() { return kUseF16C; }
#if CT_HAVE_HALF_SIMD
bool half_simd_avx2_usable() { return kUseF16C && kUseAVX2; }
#endif

void convert_to_float(const Half* src, float* dst, int64_t n) {
#if CT_HAVE_F16C_PATH
    if (kUseAVX512) return avx512_half_to_float(src, dst, n);
    if (kUseF16C) return f16c_to_float(src, dst, n);
#endif
    for (int64_t i = 0; i < n; ++i) dst[i] = half_bits_to_float(src[i].bits);
}

void convert_from_float(const float* src, Half* dst, int64_t n) {
#if CT_HAVE_F16C_PATH
    if (kUseAVX512) return avx512_half_from_float(src, dst, n);
    if (kUseF16C) return f16c_from_float(src, dst, n);
#endif
    for (int64_t i = 0; i < n; ++i) dst[i].bits = float_to_half_bits(src[i]);
}

// bfloat16: AVX512_BF16 (to bfloat16 only), AVX-512F or AVX2 where present, else the scalar shifts.
void convert_to_float(const BFloat16* src, float* dst, int64_t n) {
#if CT_HAVE_F16C_PATH
    if (kUseAVX512) return avx512_bf16_to_float(src, dst, n);
    if (kUseAVX2) return avx2_bf16_to_float(src, dst, n);
#endif
    for (int64_t i = 0; i < n; ++i) dst[i] = bfloat16_bits_to_float(src[i].bits);
}

void convert_from_float(const float* src, BFloat16* dst, int64_t n) {
#if CT_HAVE_F16C_PATH
    if (kUseAVX512BF16) return avx512bf16_bf16_from_float(src, dst, n);
    if (kUseAVX512) return avx512_bf16_from_float(src, dst, n);
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
