// allocator.cpp - aligned CPU allocation with a bounded cache of large blocks keyed by rounded size.
#include "core/allocator.h"
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

}  // namespace

void* cpu_alloc(size_t nbytes) {
    size_t n = rounded(nbytes == 0 ? 1 : nbytes);
    if (n >= kCacheMin) {
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
    if (n >= kCacheMin) {
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
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    size_t freed = c.bytes;
    for (auto& kv : c.blocks) std::free(kv.second);
    c.blocks.clear();
    c.bytes = 0;
    return freed;
}

}  // namespace ct
