// allocator.cu - the caching device allocator: sizes rounded to buckets (at most 25% waste), freed blocks kept
// per device and bucket and handed out again. Note [Stream-ordered reuse]: all work on a device runs on its
// one stream, so a block freed by the host may be reused at once - later work is queued behind earlier work.
#include <algorithm>
#include <mutex>
#include <unordered_map>
#include <vector>
#include "cuda/backend_impl.cuh"

namespace ct {
namespace cuda {
namespace {

constexpr size_t kMinBlock = 512;

struct DeviceCache {
    std::unordered_map<size_t, std::vector<void*>> free_blocks;  // bucket size -> cached blocks
    int64_t allocated = 0;  // bytes (bucket sizes) handed out and not yet freed
    int64_t cached = 0;     // bytes in free_blocks
    int64_t peak = 0;
};

struct Allocator {
    std::mutex mu;
    std::vector<DeviceCache> devices;
    DeviceCache& at(int32_t device) {
        if (devices.size() <= (size_t)device) devices.resize((size_t)device + 1);
        return devices[(size_t)device];
    }
};

Allocator& allocator() {
    static Allocator* a = new Allocator();  // never destroyed: storages are freed during exit
    return *a;
}

// Four buckets per power of two: n rounded up to a multiple of a quarter of the power of two below it.
size_t bucket_size(size_t n) {
    if (n <= kMinBlock) return kMinBlock;
    size_t pow2 = size_t(1) << (63 - __builtin_clzll((unsigned long long)(n - 1)));
    size_t step = pow2 / 4;
    return (n + step - 1) / step * step;
}

// Returns every cached block of one device to the driver (caller holds the lock; cudaFree synchronises).
void free_cached(int32_t device, DeviceCache& d) {
    cudaSetDevice(device);
    for (auto& kv : d.free_blocks)
        for (void* p : kv.second) cudaFree(p);
    d.free_blocks.clear();
    d.cached = 0;
}

std::string mib(int64_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

}  // namespace

int32_t alloc(int32_t device, size_t nbytes, void** ptr) {
    DeviceContext* ctx = nullptr;
    if (int32_t st = context(device, &ctx)) return st;
    size_t size = bucket_size(nbytes);
    Allocator& a = allocator();
    std::lock_guard<std::mutex> lock(a.mu);
    DeviceCache& d = a.at(device);
    auto it = d.free_blocks.find(size);
    void* p = nullptr;
    if (it != d.free_blocks.end() && !it->second.empty()) {
        p = it->second.back();
        it->second.pop_back();
        d.cached -= (int64_t)size;
    } else {
        cudaError_t e = cudaMalloc(&p, size);
        if (e == cudaErrorMemoryAllocation) {  // free the cache and retry once
            cudaGetLastError();
            free_cached(device, d);
            e = cudaMalloc(&p, size);
        }
        if (e != cudaSuccess) {
            size_t free_b = 0, total_b = 0;
            cudaGetLastError();
            cudaMemGetInfo(&free_b, &total_b);
            cudaGetLastError();
            return set_error(e == cudaErrorMemoryAllocation ? CT_ERR_OUT_OF_MEMORY : CT_ERR_DEVICE,
                             "out of memory: cannot allocate " + std::to_string(nbytes) + " bytes on cuda:" +
                                 std::to_string(device) + " (" + cudaGetErrorString(e) + "; allocated " +
                                 mib(d.allocated) + ", cached " + mib(d.cached) + ", free " + mib((int64_t)free_b) +
                                 " of " + mib((int64_t)total_b) + ")");
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
    Allocator& a = allocator();
    std::lock_guard<std::mutex> lock(a.mu);
    DeviceCache& d = a.at(device);
    d.free_blocks[size].push_back(ptr);  // Note [Stream-ordered reuse]
    d.allocated -= (int64_t)size;
    d.cached += (int64_t)size;
}

int32_t memory_stats(int32_t device, int64_t stats[3]) {
    DeviceContext* ctx = nullptr;
    if (int32_t st = context(device, &ctx)) return st;
    Allocator& a = allocator();
    std::lock_guard<std::mutex> lock(a.mu);
    DeviceCache& d = a.at(device);
    stats[0] = d.allocated;
    stats[1] = d.allocated + d.cached;
    stats[2] = d.peak;
    return CT_OK;
}

int32_t empty_cache() {
    Allocator& a = allocator();
    std::lock_guard<std::mutex> lock(a.mu);
    for (size_t i = 0; i < a.devices.size(); ++i) free_cached((int32_t)i, a.devices[i]);
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct
