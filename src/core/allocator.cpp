// allocator.cpp - aligned CPU allocation: large blocks (>= 1 MiB) go through a bounded global cache keyed by
// rounded size; small blocks through per-thread free lists by size class (quarter powers of two), so the
// buffers of small ops skip malloc's aligned path (memalign, chunk splitting and consolidation).
#include "core/allocator.h"
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include "core/error.h"

// Under AddressSanitizer the bytes past a request (up to its rounded size) and cached free blocks are poisoned,
// so an access beyond a tensor's storage is reported even when the block came from a cache.
#if defined(__SANITIZE_ADDRESS__)
#define CT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CT_ASAN 1
#endif
#endif
#ifdef CT_ASAN
#include <sanitizer/asan_interface.h>
#define CT_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define CT_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define CT_POISON(p, n) ((void)(p), (void)(n))
#define CT_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace ct {
namespace {

constexpr size_t kAlign = 64;
constexpr size_t kCacheMin = size_t(1) << 20;      // blocks from 1 MiB are cached
constexpr size_t kCacheLimit = size_t(2) << 30;    // at most 2 GiB kept in the cache
constexpr size_t kRound = size_t(1) << 16;         // cached sizes are rounded to 64 KiB
constexpr size_t kMaxRequest = size_t(1) << 56;    // larger requests fail at once (rounding cannot overflow)

struct Cache {
    std::mutex mu;
    std::multimap<size_t, void*> blocks;  // rounded size -> block
    size_t bytes = 0;
    ~Cache() {
        for (auto& kv : blocks) std::free(kv.second);
    }
};
Cache& cache() {
    static Cache* c = new Cache();  // never destroyed: deleters may run during static destruction
    return *c;
}

size_t rounded(size_t n) {
    if (n < kCacheMin) return (n + kAlign - 1) / kAlign * kAlign;
    return (n + kRound - 1) / kRound * kRound;
}

// ---- small blocks: size classes below kCacheMin, cached per thread ----
constexpr int kClasses = 52;                         // 64..256 by 64, then 4 classes per power of two to 1 MiB
constexpr int kPerClass = 16;                        // blocks kept per class and thread
constexpr size_t kSmallLimit = size_t(16) << 20;     // at most 16 MiB kept per thread

// Class index and size of a request of n bytes (64 <= n < kCacheMin after rounding up to 64).
int size_class(size_t n, size_t& size) {
    if (n <= 256) {
        size = (n + 63) / 64 * 64;
        return (int)(size / 64) - 1;
    }
    int e = 63 - __builtin_clzll((unsigned long long)(n - 1));  // 2^e < n <= 2^(e+1)
    size_t step = size_t(1) << (e - 2);
    size_t q = (n + step - 1) / step;                            // 5..8 quarters of 2^e
    size = q * step;
    return 4 + (e - 8) * 4 + (int)(q - 5);
}

struct SmallCache {
    void* blocks[kClasses][kPerClass];
    int count[kClasses] = {};
    size_t bytes = 0;
    void clear() {
        for (int c = 0; c < kClasses; ++c)
            for (int i = 0; i < count[c]; ++i) std::free(blocks[c][i]);
        std::fill(count, count + kClasses, 0);
        bytes = 0;
    }
    ~SmallCache() { clear(); }
};

// 0: not created yet, 1: usable, 2: destroyed (thread exiting): blocks then go straight to malloc/free.
thread_local int t_small_state = 0;
thread_local SmallCache* t_small = nullptr;

struct SmallCacheOwner {
    SmallCache cache;
    SmallCacheOwner() { t_small = &cache, t_small_state = 1; }
    ~SmallCacheOwner() { t_small_state = 2, t_small = nullptr; }
};

SmallCache* small_cache() {
    if (t_small_state == 1) return t_small;
    if (t_small_state == 2) return nullptr;
    static thread_local SmallCacheOwner owner;  // constructed on the first small allocation of the thread
    return t_small;
}

void* small_alloc(size_t n) {
    size_t size;
    int c = size_class(n, size);
    if (SmallCache* sc = small_cache(); sc && sc->count[c] > 0) {
        sc->bytes -= size;
        return sc->blocks[c][--sc->count[c]];
    }
    return std::aligned_alloc(kAlign, size);
}

void small_free(void* p, size_t n) {
    size_t size;
    int c = size_class(n, size);
    SmallCache* sc = small_cache();
    if (sc && sc->count[c] < kPerClass && sc->bytes + size <= kSmallLimit) {
        sc->blocks[c][sc->count[c]++] = p;
        sc->bytes += size;
        return;
    }
    std::free(p);
}

// ---- the memory limit: in-use bytes are counted at cpu_alloc/cpu_free, whichever path serves the block ----
std::atomic<int64_t> g_in_use{0};

// CTENSOR_MEMORY_LIMIT as bytes ("1048576", "512M", "2G"); -1 when unset or unreadable.
int64_t limit_from_env() {
    const char* text = std::getenv("CTENSOR_MEMORY_LIMIT");
    if (!text || !*text) return -1;
    char* end = nullptr;
    unsigned long long value = std::strtoull(text, &end, 10);
    int shift = 0;
    switch (std::toupper((unsigned char)*end)) {
        case 'K': shift = 10, ++end; break;
        case 'M': shift = 20, ++end; break;
        case 'G': shift = 30, ++end; break;
        default: break;
    }
    if (end == text || *end != '\0' || value > (unsigned long long)(INT64_MAX >> shift)) return -1;
    return (int64_t)(value << shift);
}
std::atomic<int64_t>& limit() {
    static std::atomic<int64_t> value{limit_from_env()};
    return value;
}

// Throws CT_ERR_OUT_OF_MEMORY "<op>: cannot allocate N bytes on cpu<why>", naming the C function running.
template <typename... Why> [[noreturn]] void fail_alloc(size_t nbytes, const Why&... why) {
    fail(CT_ERR_OUT_OF_MEMORY, t_current_op ? t_current_op : "alloc", ": cannot allocate ", nbytes, " bytes on cpu",
         why...);
}

// Counts n more bytes in use, or throws when that would pass the limit (nothing is counted then).
void reserve(size_t n, size_t nbytes) {
    int64_t cap = limit().load(std::memory_order_relaxed);
    int64_t now = g_in_use.fetch_add((int64_t)n, std::memory_order_relaxed) + (int64_t)n;
    if (cap >= 0 && now > cap) {
        g_in_use.fetch_sub((int64_t)n, std::memory_order_relaxed);
        fail_alloc(nbytes, ": the memory limit is ", cap, " bytes and ", now - (int64_t)n, " are in use");
    }
}
void unreserve(size_t n) { g_in_use.fetch_sub((int64_t)n, std::memory_order_relaxed); }

void* alloc_block(size_t n, size_t nbytes) {
    if (n < kCacheMin) {
        if (void* p = small_alloc(n)) return p;
        cpu_empty_cache();
        if (void* p = small_alloc(n)) return p;
        fail_alloc(nbytes);
    }
    {
        Cache& c = cache();
        std::lock_guard<std::mutex> lock(c.mu);
        auto it = c.blocks.find(n);
        if (it != c.blocks.end()) {
            void* p = it->second;
            c.blocks.erase(it);
            c.bytes -= n;
            return p;
        }
    }
    void* p = std::aligned_alloc(kAlign, n);
    if (!p) {
        cpu_empty_cache();
        p = std::aligned_alloc(kAlign, n);
    }
    if (!p) fail_alloc(nbytes);
    return p;
}

}  // namespace

void* cpu_alloc(size_t nbytes) {
    if (nbytes > kMaxRequest) fail_alloc(nbytes);
    size_t n = rounded(nbytes == 0 ? 1 : nbytes);
    reserve(n, nbytes);
    try {
        void* p = alloc_block(n, nbytes);
        CT_POISON(p, n);
        CT_UNPOISON(p, nbytes);
        return p;
    } catch (...) {
        unreserve(n);
        throw;
    }
}

void cpu_free(void* p, size_t nbytes) {
    if (!p) return;
    size_t n = rounded(nbytes == 0 ? 1 : nbytes);
    unreserve(n);
    CT_POISON(p, n);  // a cached block stays poisoned until cpu_alloc hands it out again
    if (n < kCacheMin) return small_free(p, n);
    {
        Cache& c = cache();
        std::lock_guard<std::mutex> lock(c.mu);
        if (c.bytes + n <= kCacheLimit) {
            c.blocks.emplace(n, p);
            c.bytes += n;
            return;
        }
    }
    std::free(p);
}

size_t cpu_empty_cache() {
    size_t small = 0;
    if (SmallCache* sc = small_cache()) small = sc->bytes, sc->clear();
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    size_t freed = c.bytes;
    for (auto& kv : c.blocks) std::free(kv.second);
    c.blocks.clear();
    c.bytes = 0;
    return freed + small;
}

void cpu_set_memory_limit(int64_t bytes) { limit().store(bytes < 0 ? -1 : bytes, std::memory_order_relaxed); }
int64_t cpu_memory_limit() { return limit().load(std::memory_order_relaxed); }
int64_t cpu_memory_in_use() { return g_in_use.load(std::memory_order_relaxed); }
int64_t cpu_memory_cached() {
    int64_t small = 0;
    if (SmallCache* sc = small_cache()) small = (int64_t)sc->bytes;
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    return small + (int64_t)c.bytes;
}

}  // namespace ct
