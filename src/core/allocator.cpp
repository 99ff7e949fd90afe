// allocator.cpp - aligned CPU allocation: large blocks (>= 1 MiB) go through a bounded global cache keyed by
// rounded size; small blocks through per-thread free lists by size class (quarter powers of two), so the
// buffers of small ops skip malloc's aligned path (memalign, chunk splitting and consolidation).
#include "core/allocator.h"
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include "core/error.h"

namespace ct {
namespace {

constexpr size_t kAlign = 64;
constexpr size_t kCacheMin = size_t(1) << 20;      // blocks from 1 MiB are cached
constexpr size_t kCacheLimit = size_t(2) << 30;    // at most 2 GiB kept in the cache
constexpr size_t kRound = size_t(1) << 16;         // cached sizes are rounded to 64 KiB

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

}  // namespace

void* cpu_alloc(size_t nbytes) {
    size_t n = rounded(nbytes == 0 ? 1 : nbytes);
    if (n < kCacheMin) {
        if (void* p = small_alloc(n)) return p;
        cpu_empty_cache();
        if (void* p = small_alloc(n)) return p;
        fail(CT_ERR_OUT_OF_MEMORY, "alloc: cannot allocate ", nbytes, " bytes on cpu");
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
    if (!p) fail(CT_ERR_OUT_OF_MEMORY, "alloc: cannot allocate ", nbytes, " bytes on cpu");
    return p;
}

void cpu_free(void* p, size_t nbytes) {
    if (!p) return;
    size_t n = rounded(nbytes == 0 ? 1 : nbytes);
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

}  // namespace ct
