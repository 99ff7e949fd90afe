// emulation.h - compiles our CUDA kernels as host C++ so CPU-only CI runs their index math: __global__ /
// __device__ / __host__ are defined away, threadIdx/blockIdx/blockDim/gridDim are thread-local variables,
// and CT_LAUNCH runs every thread of every block in turn. Include before any cuda/*.cuh header.
#pragma once
#if defined(__CUDACC__)
#error "cuda/emulation.h is for host compilers; nvcc builds the kernels natively"
#endif
#include <cstdint>

#define CT_CUDA_EMULATION 1
// GCC 12 at -O3 crashes (internal compiler error in extract_insn) SLP-vectorizing the vector kernels' unrolled
// element loops (cuda/elementwise.cuh map_vec_kernel) for some functors: they are compiled without it here.
#define CT_EMULATION_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline

namespace ct {
namespace emu {

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

// initial-exec: the kernels read these once per element; in a dlopen()ed library the default model calls
// __tls_get_addr for each read, this one reads %fs directly (seen in fill_kernel's code; no speed-up measured:
// big_tensors_emulated_cuda took minutes either way). The 56 bytes fit glibc's static TLS surplus for dlopen().
#define CT_EMULATION_TLS __attribute__((tls_model("initial-exec")))
inline thread_local dim3 threadIdx CT_EMULATION_TLS, blockIdx CT_EMULATION_TLS, blockDim CT_EMULATION_TLS,
    gridDim CT_EMULATION_TLS;

// Counts launches, so tests can check that a call really went through the kernel path.
inline thread_local int64_t launches CT_EMULATION_TLS = 0;

// Runs body() once per (block, thread), with the built-in variables set, like a launch that runs
// every thread to completion one after another (fine for kernels without __syncthreads).
template <typename Body> void launch(dim3 grid, dim3 block, Body&& body) {
    ++launches;
    gridDim = grid;
    blockDim = block;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx)
                for (unsigned tz = 0; tz < block.z; ++tz)
                    for (unsigned ty = 0; ty < block.y; ++ty)
                        for (unsigned tx = 0; tx < block.x; ++tx) {
                            blockIdx = dim3(bx, by, bz);
                            threadIdx = dim3(tx, ty, tz);
                            body();
                        }
}

}  // namespace emu
}  // namespace ct

using ct::emu::blockDim;
using ct::emu::blockIdx;
using ct::emu::dim3;
using ct::emu::gridDim;
using ct::emu::threadIdx;
typedef struct CUstream_st* cudaStream_t;  // never dereferenced under emulation

#define CT_LAUNCH(kernel, grid, block, stream, ...) \
    ::ct::emu::launch((grid), (block), [&] { kernel(__VA_ARGS__); })
