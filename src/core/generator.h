// generator.h - seeded random number generators: the Philox4x32-10 counter-based bijection (Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3", SC'11) and a Generator holding a key and a counter offset.
// Note [Counter-based randomness]: an op reserves a range of counters under the generator's lock, then
// element group g (a fixed number of elements per op) draws from counter base + g alone, so results
// depend on the seed and the sequence of ops, never on the thread count or scheduling.
#pragma once
#include <array>
#include <cstdint>
#include <mutex>

namespace ct {

using PhiloxWords = std::array<uint32_t, 4>;

// Philox4x32 with 10 rounds: maps (counter, key) to four pseudo-random 32-bit words.
inline PhiloxWords philox4x32_10(PhiloxWords ctr, std::array<uint32_t, 2> key) {
    constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;    // round multipliers
    constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;  // key schedule increments
    for (int round = 0; round < 10; ++round) {
        if (round > 0) key[0] += kWeyl0, key[1] += kWeyl1;
        uint64_t p0 = (uint64_t)kMul0 * ctr[0];
        uint64_t p1 = (uint64_t)kMul1 * ctr[2];
        ctr = PhiloxWords{(uint32_t)(p1 >> 32) ^ ctr[1] ^ key[0], (uint32_t)p1, (uint32_t)(p0 >> 32) ^ ctr[3] ^ key[1],
                          (uint32_t)p0};
    }
    return ctr;
}

// A reserved stretch of a generator's stream: counters base, base + 1, ... under key.
struct PhiloxStream {
    std::array<uint32_t, 2> key{};
    uint64_t base = 0;
    // The four words of the i-th counter of the stretch.
    PhiloxWords block(uint64_t i) const {
        uint64_t c = base + i;
        return philox4x32_10(PhiloxWords{(uint32_t)c, (uint32_t)(c >> 32), 0u, 0u}, key);
    }
};

// 53-bit uniform double in [0, 1) from two words.
inline double uniform53(uint32_t hi, uint32_t lo) {
    return (double)((((uint64_t)hi << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
}
// 24-bit uniform float in [0, 1) from one word.
inline float uniform24(uint32_t w) { return (float)(w >> 8) * (1.0f / 16777216.0f); }
// High 64 bits of a * b: maps a uniform 64-bit a to [0, b) with bias below b / 2^64.
inline uint64_t mul_hi64(uint64_t a, uint64_t b) {
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
}

class Generator {
  public:
    static constexpr uint64_t kDefaultSeed = 67280421310721ull;  // PyTorch's default seed

    explicit Generator(uint64_t seed = kDefaultSeed) : seed_(seed) {}
    Generator(const Generator&) = delete;
    Generator& operator=(const Generator&) = delete;

    // Restarts the stream from seed (same seed -> same numbers).
    void set_seed(uint64_t seed) {
        std::lock_guard<std::mutex> lock(mu_);
        seed_ = seed;
        offset_ = 0;
    }
    uint64_t seed() const {
        std::lock_guard<std::mutex> lock(mu_);
        return seed_;
    }
    // Reserves n counters for one op (thread-safe; concurrent ops get disjoint stretches).
    PhiloxStream reserve(uint64_t n) {
        std::lock_guard<std::mutex> lock(mu_);
        PhiloxStream s;
        s.key = {(uint32_t)seed_, (uint32_t)(seed_ >> 32)};
        s.base = offset_;
        offset_ += n;
        return s;
    }

  private:
    mutable std::mutex mu_;
    uint64_t seed_;
    uint64_t offset_ = 0;  // counters used so far
};

// The process-wide generator used wherever a generator argument is null.
Generator& default_generator();
// gen, or the default generator when gen is null.
inline Generator& generator_or_default(Generator* gen) { return gen ? *gen : default_generator(); }

}  // namespace ct
