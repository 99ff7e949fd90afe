// allocator.cu - the backend's caching allocator (cuda/caching_allocator.h) on cudaMalloc/cudaFree, one per
// process, behind the table's malloc/free/memory_stats/empty_cache entries.
#include "cuda/backend_impl.cuh"
#include "cuda/caching_allocator.h"

namespace ct {
namespace cuda {
namespace {

struct CudaMemory {
    int32_t allocate(int32_t device, size_t n, void** p, std::string* error) {
        cudaError_t e = cudaMalloc(p, n);
        if (e == cudaSuccess) return CT_OK;
        cudaGetLastError();
        *error = cudaGetErrorString(e);
        return e == cudaErrorMemoryAllocation ? CT_ERR_OUT_OF_MEMORY : CT_ERR_DEVICE;
    }
    // cudaFree synchronises the device, so cached blocks still used by queued work are safe to free.
    void free(int32_t device, void* p) {
        cudaSetDevice(device);
        cudaFree(p);
        cudaGetLastError();
    }
    std::string describe(int32_t device) {
        size_t free_b = 0, total_b = 0;
        cudaSetDevice(device);
        if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
            cudaGetLastError();
            return "device memory unknown";
        }
        return "free " + mib((int64_t)free_b) + " of " + mib((int64_t)total_b);
    }
};

CachingAllocator<CudaMemory>& allocator() {
    static auto* a = new CachingAllocator<CudaMemory>(CudaMemory{});  // never destroyed: freed during exit
    return *a;
}

}  // namespace

int32_t alloc(int32_t device, size_t nbytes, void** ptr) {
    DeviceContext* ctx = nullptr;
    if (int32_t st = context(device, &ctx)) return st;  // also makes device current for cudaMalloc
    std::string error;
    int32_t st = allocator().allocate(device, nbytes, ptr, &error);
    return st == CT_OK ? st : set_error(st, error);
}

void release(int32_t device, void* ptr, size_t nbytes) { allocator().release(device, ptr, nbytes); }

int32_t memory_stats(int32_t device, int64_t stats[3]) {
    DeviceContext* ctx = nullptr;
    if (int32_t st = context(device, &ctx)) return st;
    allocator().stats(device, stats);
    return CT_OK;
}

int32_t empty_cache() {
    allocator().empty_cache();
    return CT_OK;
}

}  // namespace cuda
}  // namespace ct
