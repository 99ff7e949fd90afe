// caching_allocator.h - the caching device allocator's logic, independent of CUDA: sizes rounded to buckets
// (at most 25% waste), freed blocks kept per device and bucket and handed out again, statistics, and on
// out-of-memory one retry after returning the cache. allocator.cu plugs in cudaMalloc/cudaFree; the emulated
// test backend plugs in host memory, so CPU-only CI runs this same code.
// Note [Stream-ordered reuse]: all work on a device runs on its one stream, so a block freed by the host may be
// handed out again at once - any later use is queued behind the earlier work that still reads it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>
#include "ctensor.h"

namespace ct {
namespace cuda {

constexpr size_t kMinBlock = 512;

// Four buckets per power of two: n rounded up to a multiple of a quarter of the power of two below it.
inline size_t bucket_size(size_t n) {
    if (n <= kMinBlock) return kMinBlock;
    size_t pow2 = size_t(1) << (63 - __builtin_clzll((unsigned long long)(n - 1)));
    size_t step = pow2 / 4;
    return (n + step - 1) / step * step;
}

inline std::string mib(int64_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

// Memory: int32_t allocate(int32_t device, size_t n, void** p, std::string* error) returning CT_OK,
// CT_ERR_OUT_OF_MEMORY (worth a retry after freeing the cache) or another status; void free(device, p);
// std::string describe(device) for messages (e.g. the driver's free/total memory).
template <typename Memory> class CachingAllocator {
  public:
    explicit CachingAllocator(Memory memory) : memory_(memory) {}

    int32_t allocate(int32_t device, size_t nbytes, void** ptr, std::string* error) {
        size_t size = bucket_size(nbytes);
        std::lock_guard<std::mutex> lock(mu_);
        DeviceCache& d = at(device);
        auto it = d.free_blocks.find(size);
        void* p = nullptr;
        if (it != d.free_blocks.end() && !it->second.empty()) {  // Note [Stream-ordered reuse]
            p = it->second.back();
            it->second.pop_back();
            d.cached -= (int64_t)size;
        } else {
            int32_t st = memory_.allocate(device, size, &p, error);
            if (st == CT_ERR_OUT_OF_MEMORY) {  // return the cache to the driver and retry once
                free_cached(device, d);
                st = memory_.allocate(device, size, &p, error);
            }
            if (st != CT_OK) {
                *error = "out of memory: cannot allocate " + std::to_string(nbytes) + " bytes on cuda:" +
                         std::to_string(device) + " (" + *error + "; allocated " + mib(d.allocated) + ", cached " +
                         mib(d.cached) + ", " + memory_.describe(device) + ")";
                return st;
            }
        }
        d.allocated += (int64_t)size;
        d.peak = std::max(d.peak, d.allocated);
        *ptr = p;
        return CT_OK;
    }

    void release(int32_t device, void* ptr, size_t nbytes) {
        if (!ptr) return;
        size_t size = bucket_size(nbytes);
        std::lock_guard<std::mutex> lock(mu_);
        DeviceCache& d = at(device);
        d.free_blocks[size].push_back(ptr);
        d.allocated -= (int64_t)size;
        d.cached += (int64_t)size;
    }

    // stats[0] allocated, [1] reserved (allocated + cached), [2] peak allocated.
    void stats(int32_t device, int64_t stats[3]) {
        std::lock_guard<std::mutex> lock(mu_);
        DeviceCache& d = at(device);
        stats[0] = d.allocated;
        stats[1] = d.allocated + d.cached;
        stats[2] = d.peak;
    }

    void empty_cache() {
        std::lock_guard<std::mutex> lock(mu_);
        for (size_t i = 0; i < devices_.size(); ++i) free_cached((int32_t)i, devices_[i]);
    }

  private:
    struct DeviceCache {
        std::unordered_map<size_t, std::vector<void*>> free_blocks;  // bucket size -> cached blocks
        int64_t allocated = 0;  // bucket bytes handed out and not yet released
        int64_t cached = 0;     // bytes in free_blocks
        int64_t peak = 0;
    };

    DeviceCache& at(int32_t device) {
        if (devices_.size() <= (size_t)device) devices_.resize((size_t)device + 1);
        return devices_[(size_t)device];
    }

    void free_cached(int32_t device, DeviceCache& d) {  // caller holds mu_
        for (auto& kv : d.free_blocks)
            for (void* p : kv.second) memory_.free(device, p);
        d.free_blocks.clear();
        d.cached = 0;
    }

    Memory memory_;
    std::mutex mu_;
    std::vector<DeviceCache> devices_;
};

}  // namespace cuda
}  // namespace ct
