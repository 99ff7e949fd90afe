// half_simd.h - eight float16/bfloat16 values to and from one AVX register of float32 (and sixteen back from two),
// bit-identical to the scalar conversions of core/half.h (Note [Half conversions]). Shared by the bulk conversions
// (cpu/half_convert.cpp) and the fused elementwise loops (cpu/half_loops.h). Compiled through target attributes: a
// caller checks the CPU first (half_simd_avx2_usable()) and carries a target that includes the helper's
// (CT_HALF_SIMD_TARGET includes both).
#pragma once
#include <cstdint>
#include "core/half.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CT_HAVE_HALF_SIMD 1
#define CT_HALF_SIMD_TARGET __attribute__((target("avx2,f16c")))

namespace ct {

// float16 needs F16C only (vcvtph2ps / vcvtps2ph, round to nearest even, NaN quieted as the scalar reference).
__attribute__((target("avx,f16c"))) inline __m256 load8_as_float(const Half* src) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
}
__attribute__((target("avx,f16c"))) inline void store8_from_float(__m256 v, Half* dst) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
// bfloat16 with AVX2: a widening shift; back, round to nearest even with a blend for NaN (quiet, sign kept).
__attribute__((target("avx2"))) inline __m256 load8_as_float(const BFloat16* src) {
    __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(w, 16));
}
// The bfloat16 bits of eight floats in the low halves of 32-bit lanes: round to nearest even (adding 0x7fff plus
// the lowest kept bit carries into the kept bits exactly when the dropped half rounds up); NaN keeps its top bits,
// made quiet (the addition could carry a NaN's payload into the sign).
__attribute__((target("avx2"))) inline __m256i bfloat16_bits_of(__m256 v) {
    const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7fff), quiet = _mm256_set1_epi32(0x40);
    const __m256i x = _mm256_castps_si256(v);
    const __m256i hi = _mm256_srli_epi32(x, 16);
    const __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(x, _mm256_add_epi32(bias, _mm256_and_si256(hi, one))), 16);
    const __m256i is_nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    return _mm256_blendv_epi8(rounded, _mm256_or_si256(hi, quiet), is_nan);
}
__attribute__((target("avx2"))) inline void store8_from_float(__m256 v, BFloat16* dst) {
    const __m256i r = bfloat16_bits_of(v);
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0xD8);  // 16-bit values in order
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm256_castsi256_si128(packed));
}
// Sixteen values at once: one pack for two registers (lo's eight values first).
__attribute__((target("avx2"))) inline void store16_from_float(__m256 lo, __m256 hi, BFloat16* dst) {
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(bfloat16_bits_of(lo), bfloat16_bits_of(hi)), 0xD8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), packed);
}
__attribute__((target("avx,f16c"))) inline void store16_from_float(__m256 lo, __m256 hi, Half* dst) {
    store8_from_float(lo, dst);
    store8_from_float(hi, dst + 8);
}

// Whether this CPU (and OS) runs CT_HALF_SIMD_TARGET code: AVX2 and F16C (cpu/half_convert.cpp).
bool half_simd_avx2_usable();

}  // namespace ct
#else
#define CT_HAVE_HALF_SIMD 0
#endif
