// half.h - the 16-bit floating storage types Half (IEEE binary16) and BFloat16 (bfloat16), and their scalar
// conversions to and from float. Kernels never compute in these types: they convert blocks to float32
// (Note [Half compute] in ops/half_compute.h), so the types carry bits and conversions only.
#pragma once
#include <cstdint>
#include <cstring>

namespace ct {

// Note [Half conversions]: float -> half and float -> bfloat16 round to nearest, ties to even; overflow gives
// inf of the same sign, values below half the smallest subnormal give signed zero, subnormals are exact where
// representable. NaN stays NaN with its sign, is made quiet, and keeps the top payload bits (as x86's
// vcvtps2ph and vcvtph2ps do, so the scalar and the F16C bulk paths agree bit for bit). half/bfloat16 -> float
// is exact. bfloat16 is the top 16 bits of a float32, so its conversions are shifts.

inline uint32_t float_bits(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    return x;
}
inline float bits_float(uint32_t x) {
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

inline uint16_t float_to_half_bits(float f) {
    const uint32_t x = float_bits(f);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));  // NaN
    if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  // >= 65520 (or inf) rounds to inf
    const uint32_t e = ax >> 23, mant = ax & 0x7fffffu;
    if (e <= 112) {  // below 2^-14: a half subnormal (or zero); units of 2^-24
        if (e < 102) return sign;  // < 2^-25: rounds to zero
        const uint32_t m = mant | 0x800000u, shift = 126 - e;  // 14..24
        uint32_t r = m >> shift;
        const uint32_t rem = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (r & 1u))) ++r;  // may carry into the smallest normal
        return (uint16_t)(sign | r);
    }
    uint32_t h = ((e - 112) << 10) | (mant >> 13);
    const uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry moves into the exponent
    return (uint16_t)(sign | h);
}

inline float half_bits_to_float(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return bits_float(sign | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0u));  // inf / quiet NaN
    if (e == 0) {
        const float v = (float)m * 0x1p-24f;  // exact: m < 2^10
        return sign ? -v : v;
    }
    return bits_float(sign | ((e + 112) << 23) | (m << 13));
}

inline uint16_t float_to_bfloat16_bits(float f) {
    const uint32_t x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);  // quiet NaN, sign kept
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);                  // RNE; overflow reaches inf
}
inline float bfloat16_bits_to_float(uint16_t b) { return bits_float((uint32_t)b << 16); }

// IEEE binary16 storage. Conversions are explicit so that no kernel computes in Half by accident.
struct Half {
    uint16_t bits;
    Half() = default;
    explicit Half(float f) : bits(float_to_half_bits(f)) {}
    explicit operator float() const { return half_bits_to_float(bits); }
    static Half from_bits(uint16_t b) {
        Half h;
        h.bits = b;
        return h;
    }
};

// bfloat16 storage (8 exponent bits, 7 mantissa bits).
struct BFloat16 {
    uint16_t bits;
    BFloat16() = default;
    explicit BFloat16(float f) : bits(float_to_bfloat16_bits(f)) {}
    explicit operator float() const { return bfloat16_bits_to_float(bits); }
    static BFloat16 from_bits(uint16_t b) {
        BFloat16 h;
        h.bits = b;
        return h;
    }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2, "16-bit storage types");

template <typename T> struct IsHalfType { static constexpr bool value = false; };
template <> struct IsHalfType<Half> { static constexpr bool value = true; };
template <> struct IsHalfType<BFloat16> { static constexpr bool value = true; };

}  // namespace ct
