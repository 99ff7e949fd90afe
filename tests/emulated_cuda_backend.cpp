// emulated_cuda_backend.cpp - a stand-in for libctensor_cuda built as host C++ for CPU-only CI: the real
// kernels (cuda/elementwise.cuh through cuda/emulation.h) and the real caching allocator logic on host memory
// posing as device memory. Loaded with CTENSOR_CUDA_BACKEND, it lets the GPU section of the test suite run
// the core's whole CUDA path (allocation, moves, layouts, dispatch, autograd) without a GPU.
// Environment: CTENSOR_EMULATED_CUDA_DEVICES (default 2), CTENSOR_EMULATED_CUDA_MEMORY (bytes per device).
#include "cuda/emulation.h"
#include "cuda/caching_allocator.h"
#include "cuda/elementwise.cuh"
#include "cuda/gemm_args.h"
#include "cuda/index.cuh"
#include "cuda/nn_rows.cuh"
#include "cuda/norm.cuh"
#include "cuda/reduce.cuh"
#include "cuda/scan.cuh"
#include "cuda/unary.cuh"
#include "cuda/conv.cuh"
#include "cuda/conv_nd.cuh"
#include "cuda/optim.cuh"
#include "cuda/rnn.cuh"
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

int32_t emulated_linalg(const ct_cuda_linalg_args* args, std::string* error);  // emulated_cuda_linalg.cpp

namespace {

using namespace ct::cuda;

thread_local std::string t_error;
const LaunchConfig kLaunch{16, 32};  // small, so the grid-stride loops wrap on anything but tiny tensors

int32_t set_error(int32_t status, const std::string& msg) {
    t_error = msg;
    return status;
}

int64_t env_int(const char* name, int64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoll(v) : fallback;
}

int32_t device_count() {
    static const int32_t n = (int32_t)env_int("CTENSOR_EMULATED_CUDA_DEVICES", 2);
    return n;
}

// Host memory with an optional per-device capacity, so out-of-memory paths can be exercised.
struct HostMemory {
    std::mutex mu;
    std::map<void*, std::pair<int32_t, size_t>> live;
    std::map<int32_t, int64_t> used;
    int32_t allocate(int32_t device, size_t n, void** p, std::string* error) {
        static const int64_t capacity = env_int("CTENSOR_EMULATED_CUDA_MEMORY", INT64_MAX);
        std::lock_guard<std::mutex> lock(mu);
        if (used[device] + (int64_t)n > capacity) {
            *error = "emulated device memory exhausted";
            return CT_ERR_OUT_OF_MEMORY;
        }
        *p = std::aligned_alloc(128, n);  // bucket sizes are multiples of 128
        if (!*p) {
            *error = "host allocation failed";
            return CT_ERR_OUT_OF_MEMORY;
        }
        live[*p] = {device, n};
        used[device] += (int64_t)n;
        return CT_OK;
    }
    void free(int32_t device, void* p) {
        std::lock_guard<std::mutex> lock(mu);
        used[device] -= (int64_t)live[p].second;
        live.erase(p);
        std::free(p);
    }
    std::string describe(int32_t device) { return "emulated device"; }
};

struct HostMemoryRef {  // the allocator copies its Memory; all copies share one HostMemory
    HostMemory* m;
    int32_t allocate(int32_t d, size_t n, void** p, std::string* e) { return m->allocate(d, n, p, e); }
    void free(int32_t d, void* p) { m->free(d, p); }
    std::string describe(int32_t d) { return m->describe(d); }
};

CachingAllocator<HostMemoryRef>& allocator() {
    static auto* a = new CachingAllocator<HostMemoryRef>(HostMemoryRef{new HostMemory()});
    return *a;
}

int32_t check_device(int32_t device) {
    if (device < 0 || device >= device_count())
        return set_error(CT_ERR_DEVICE, "invalid device cuda:" + std::to_string(device) + " (emulated)");
    return CT_OK;
}

int32_t init(int32_t* count) {
    if (device_count() <= 0) return set_error(CT_ERR_NOT_COMPILED, "no CUDA device (emulated backend with 0 devices)");
    *count = device_count();
    return CT_OK;
}

const char* last_error() { return t_error.c_str(); }

// What the half tests count (ct_emulated_cuda_counters below): device allocations requested by the core, and
// copies from float16/bfloat16 to float32 (the widening copy of the op-level fallback, Note [Half compute]).
std::atomic<int64_t> g_mallocs{0}, g_half_widenings{0};

int32_t malloc_entry(int32_t device, size_t n, void** p) {
    if (int32_t st = check_device(device)) return st;
    ++g_mallocs;
    std::string error;
    int32_t st = allocator().allocate(device, n, p, &error);
    return st == CT_OK ? st : set_error(st, error);
}
void free_entry(int32_t device, void* p, size_t n) { allocator().release(device, p, n); }

// Scratch blocks for one call's kernels from the same allocator (the real backend's ScratchBlocks), so the emulated
// device's memory limit applies to them too; they run synchronously here, so they are given back on return.
struct Scratch {
    int32_t device;
    std::vector<std::pair<void*, size_t>> blocks;
    void* take(size_t n) {
        void* p = nullptr;
        std::string error;
        if (allocator().allocate(device, n, &p, &error) != CT_OK) return nullptr;
        blocks.emplace_back(p, n);
        return p;
    }
    ~Scratch() {
        for (auto& b : blocks) allocator().release(device, b.first, b.second);
    }
};
int32_t stats_entry(int32_t device, int64_t stats[3]) {
    if (int32_t st = check_device(device)) return st;
    allocator().stats(device, stats);
    return CT_OK;
}
int32_t empty_cache_entry() {
    allocator().empty_cache();
    return CT_OK;
}
int32_t synchronize_entry(int32_t device) { return check_device(device); }

std::atomic<int64_t> g_host_reads{0};  // device-to-host memcpy calls (test hook ct_emulated_cuda_host_reads)

int32_t memcpy_entry(void* dst, int32_t dst_device, const void* src, int32_t src_device, size_t n) {
    if (dst_device != CT_CUDA_HOST) if (int32_t st = check_device(dst_device)) return st;
    if (src_device != CT_CUDA_HOST) if (int32_t st = check_device(src_device)) return st;
    if (dst_device == CT_CUDA_HOST && src_device != CT_CUDA_HOST) ++g_host_reads;
    if (n) std::memcpy(dst, src, n);
    return CT_OK;
}

int32_t finish(int32_t st, const char* what) { return st == CT_OK ? st : set_error(st, std::string(what) + ": bad request"); }

int32_t copy_entry(int32_t device, const ct_cuda_layout* L, void* dst, int32_t dd, const void* src, int32_t sd) {
    if (int32_t st = check_device(device)) return st;
    if (dd == CT_FLOAT32 && (sd == CT_FLOAT16 || sd == CT_BFLOAT16)) ++g_half_widenings;
    return finish(launch_copy(kLaunch, nullptr, *L, dst, dd, src, sd), "copy");
}
int32_t fill_entry(int32_t device, const ct_cuda_layout* L, void* dst, int32_t dtype, double value) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_fill(kLaunch, nullptr, *L, dst, dtype, value), "fill");
}
int32_t binary_entry(int32_t device, int32_t op, const ct_cuda_layout* L, void* out, const void* a, const void* b,
                     int32_t dtype, double alpha) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_binary(kLaunch, nullptr, *L, op, out, a, b, dtype, alpha), "binary");
}

// ---- unary, where and reductions (cuda-ops) ----
int32_t unary_entry(int32_t device, int32_t op, const ct_cuda_layout* L, void* out, const void* x, int32_t dtype,
                    double p0, double p1) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_unary(kLaunch, nullptr, *L, op, out, x, dtype, p0, p1), "unary");
}
int32_t where_entry(int32_t device, const ct_cuda_layout4* L, void* out, const void* cond, const void* a, const void* b,
                    int32_t dtype) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_where(kLaunch, nullptr, *L, out, cond, a, b, dtype), "where");
}
int32_t reduce_entry(int32_t device, int32_t op, const ct_cuda_reduce_layout* L, void* out, void* out_index,
                     const void* x, int32_t dtype, double p0) {
    if (int32_t st = check_device(device)) return st;
    Scratch scratch{device, {}};
    return finish(launch_reduce(kLaunch, nullptr, *L, op, out, out_index, x, dtype, p0,
                                [&](size_t n) { return scratch.take(n); }),
                  "reduce");
}
int32_t reduce_to_entry(int32_t device, int32_t op, const ct_cuda_reduce_layout* L, void* out, int32_t out_dtype,
                        void* out_index, const void* x, int32_t dtype, double p0) {
    if (int32_t st = check_device(device)) return st;
    Scratch scratch{device, {}};
    return finish(launch_reduce_to(kLaunch, nullptr, *L, op, out, out_dtype, out_index, x, dtype, p0,
                                   [&](size_t n) { return scratch.take(n); }),
                  "reduce_to");
}
int32_t cumsum_entry(int32_t device, void* data, int32_t dtype, int64_t outer, int64_t n, int64_t inner, int32_t rev) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_cumsum(kLaunch, nullptr, data, dtype, outer, n, inner, rev), "cumsum");
}

// A reference column-major GEMM in place of cuBLAS, fed through the same row-major mapping. Storage type S;
// products accumulate in compute_t<S> (float for the half types, as CUBLAS_COMPUTE_32F) and C is stored once.
template <typename S> void column_major_gemm(const ColumnMajorGemm& g, double alpha, double beta) {
    using T = compute_t<S>;
    for (int64_t bt = 0; bt < g.batch; ++bt) {
        const S* A = static_cast<const S*>(g.first) + bt * g.stride_first;
        const S* B = static_cast<const S*>(g.second) + bt * g.stride_second;
        S* C = static_cast<S*>(g.c) + bt * g.stride_c;
        for (int64_t i = 0; i < g.m; ++i)
            for (int64_t j = 0; j < g.n; ++j) {
                T s = 0;
                for (int64_t p = 0; p < g.k; ++p)
                    s += load(g.trans_first ? A[p + i * g.ld_first] : A[i + p * g.ld_first]) *
                         load(g.trans_second ? B[j + p * g.ld_second] : B[p + j * g.ld_second]);
                S& c = C[i + j * g.ldc];
                c = store<S>((T)alpha * s + (beta == 0 ? T(0) : (T)beta * load(c)));
            }
    }
}

int32_t gemm_entry(int32_t device, int32_t dtype, int32_t ta, int32_t tb, int64_t m, int64_t n, int64_t k,
                   double alpha, const void* a, int64_t lda, int64_t sa, const void* b, int64_t ldb, int64_t sb,
                   double beta, void* c, int64_t ldc, int64_t sc, int64_t batch) {
    if (int32_t st = check_device(device)) return st;
    RowMajorGemm rm{ta != 0, tb != 0, m, n, k, a, lda, sa, b, ldb, sb, c, ldc, sc, batch};
    if (const char* bad = check_row_major_gemm(rm)) return set_error(CT_ERR_INVALID_ARGUMENT, std::string("gemm: ") + bad);
    if (dtype == CT_FLOAT32) column_major_gemm<float>(to_column_major(rm), alpha, beta);
    else if (dtype == CT_FLOAT64) column_major_gemm<double>(to_column_major(rm), alpha, beta);
    else if (dtype == CT_FLOAT16) column_major_gemm<half_t>(to_column_major(rm), alpha, beta);
    else if (dtype == CT_BFLOAT16) column_major_gemm<bfloat16_t>(to_column_major(rm), alpha, beta);
    else return set_error(CT_ERR_DTYPE, "gemm: dtype must be float32, float64, float16 or bfloat16");
    return CT_OK;
}

// ---- nn family (cuda-nn) ----
int32_t softmax_entry(int32_t device, int32_t dtype, int32_t log_, int64_t outer, int64_t n, int64_t inner,
                      const void* x, void* y) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_softmax(kLaunch, nullptr, dtype, log_ != 0, outer, n, inner, x, y), "softmax");
}
int32_t softmax_backward_entry(int32_t device, int32_t dtype, int32_t log_, int64_t outer, int64_t n, int64_t inner,
                               const void* g, const void* y, void* gx) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_softmax_backward(kLaunch, nullptr, dtype, log_ != 0, outer, n, inner, g, y, gx),
                  "softmax_backward");
}
int32_t class_loss_entry(int32_t device, int32_t dtype, int32_t op, int64_t rows, int64_t classes, const void* x,
                         const int64_t* cls, void* loss, void* lse) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_class_loss(kLaunch, nullptr, dtype, op, rows, classes, x, cls, loss, lse), "class_loss");
}
int32_t class_loss_backward_entry(int32_t device, int32_t dtype, int32_t op, int64_t rows, int64_t classes,
                                  const void* x, const void* lse, const int64_t* cls, const void* g, int32_t per_row,
                                  double scale, void* gx) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_class_loss_backward(kLaunch, nullptr, dtype, op, rows, classes, x, lse, cls, g, per_row,
                                             scale, gx),
                  "class_loss_backward");
}
int32_t pointwise_loss_entry(int32_t device, int32_t dtype, int32_t op, int64_t n, const void* x, const void* t,
                             void* out) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_pointwise_loss(kLaunch, nullptr, dtype, op, n, x, t, out), "pointwise_loss");
}
int32_t pointwise_loss_backward_entry(int32_t device, int32_t dtype, int32_t op, int64_t n, const void* x,
                                      const void* t, const void* g, int32_t per_elem, double scale, void* gx,
                                      void* gt) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_pointwise_loss_backward(kLaunch, nullptr, dtype, op, n, x, t, g, per_elem, scale, gx, gt),
                  "pointwise_loss_backward");
}

int32_t index_entry(int32_t device, int32_t op, const ct_cuda_layout* L, void* a, const void* idx, int32_t index_dtype,
                    const void* b, int32_t dtype, int64_t step) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_index(kLaunch, nullptr, op, *L, a, idx, index_dtype, b, dtype, step), "index");
}
int32_t masked_fill_entry(int32_t device, const ct_cuda_layout* L, void* out, const void* x, const void* mask,
                          int32_t dtype, double value) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_masked_fill(kLaunch, nullptr, *L, out, x, mask, dtype, value), "masked_fill");
}

// ---- conv, pooling, optimizers (cuda-conv) ----
int32_t adam_entry(int32_t device, int32_t dtype, int64_t n, void* w, const void* g, void* m, void* v,
                   const ct_cuda_adam* coeffs) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_adam(kLaunch, nullptr, dtype, n, w, g, m, v, coeffs), "adam");
}
int32_t norm_apply_entry(int32_t device, int32_t dtype, const ct_cuda_norm* geom, const void* x, const float* mean,
                         const float* rstd, const void* w, const void* b, void* y) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_norm_apply(kLaunch, nullptr, dtype, geom, x, mean, rstd, w, b, y), "norm_apply");
}
int32_t sgd_entry(int32_t device, int32_t dtype, int64_t n, void* w, const void* g, void* buf,
                  const ct_cuda_sgd* coeffs) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_sgd(kLaunch, nullptr, dtype, n, w, g, buf, coeffs), "sgd");
}
int32_t im2col_entry(int32_t device, int32_t dtype, const ct_cuda_conv2d* geom, int64_t count, const void* x,
                     void* col, const int64_t col_strides[3]) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_im2col(kLaunch, nullptr, dtype, geom, count, x, col, col_strides), "im2col");
}
int32_t col2im_entry(int32_t device, int32_t dtype, const ct_cuda_conv2d* geom, int64_t count, const void* col,
                     void* x) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_col2im(kLaunch, nullptr, dtype, geom, count, col, x), "col2im");
}
int32_t pool2d_entry(int32_t device, int32_t dtype, int32_t op, const ct_cuda_pool2d* geom, const void* in,
                     const int64_t* idx, void* out, int64_t* out_idx) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_pool2d(kLaunch, nullptr, dtype, op, geom, in, idx, out, out_idx), "pool2d");
}

// ---- pooling options and adaptive pooling (pool-options) ----
int32_t pool2d_ex_entry(int32_t device, int32_t dtype, int32_t op, const ct_cuda_pool2d_ex* geom, const void* in,
                        const int64_t* idx, void* out, int64_t* out_idx) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_pool2d_ex(kLaunch, nullptr, dtype, op, geom, in, idx, out, out_idx), "pool2d_ex");
}

// ---- N-d convolution (issue 14) ----
int32_t im2col_nd_entry(int32_t device, int32_t dtype, const ct_cuda_conv_nd* geom, int64_t count, const void* x,
                        void* col, const int64_t col_strides[3]) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_im2col_nd(kLaunch, nullptr, dtype, geom, count, x, col, col_strides), "im2col_nd");
}
int32_t col2im_nd_entry(int32_t device, int32_t dtype, const ct_cuda_conv_nd* geom, int64_t count, const void* col,
                        void* x) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_col2im_nd(kLaunch, nullptr, dtype, geom, count, col, x), "col2im_nd");
}

// ---- dense linear algebra on cuSOLVER (issue 14): LAPACK on the host (emulated_cuda_linalg.cpp) ----
int32_t linalg_entry(int32_t device, const ct_cuda_linalg_args* args) {
    if (int32_t st = check_device(device)) return st;
    std::string error;
    int32_t st = emulated_linalg(args, &error);
    return st == CT_OK ? st : set_error(st, error);
}

// ---- recurrent layers on CUDA (issue 14) ----
int32_t rnn_step_entry(int32_t device, const ct_cuda_rnn_step_args* args) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_rnn_step(kLaunch, nullptr, args), "rnn_step");
}

// ---- more reductions (issue 14) ----
int32_t logcumsumexp_entry(int32_t device, void* data, int32_t dtype, int64_t outer, int64_t n, int64_t inner) {
    if (int32_t st = check_device(device)) return st;
    return finish(launch_logcumsumexp(kLaunch, nullptr, data, dtype, outer, n, inner), "logcumsumexp");
}

const ct_cuda_backend kTable = {
    sizeof(ct_cuda_backend), CT_CUDA_BACKEND_VERSION, &init, &last_error, &malloc_entry, &free_entry,
    &stats_entry, &empty_cache_entry, &synchronize_entry, &memcpy_entry, &copy_entry, &fill_entry,
    &binary_entry, &gemm_entry,
    // ---- nn family (cuda-nn) ----
    &softmax_entry, &softmax_backward_entry, &class_loss_entry, &class_loss_backward_entry, &pointwise_loss_entry,
    &pointwise_loss_backward_entry, &index_entry, &masked_fill_entry,
    /* unary, where and reductions (cuda-ops) */
    &unary_entry, &where_entry, &reduce_entry, &cumsum_entry,
    // ---- conv, pooling, optimizers (cuda-conv) ----
    &adam_entry, &im2col_entry, &col2im_entry, &pool2d_entry,
    // ---- pooling options and adaptive pooling (pool-options) ----
    &pool2d_ex_entry,
    // ---- N-d convolution (issue 14) ----
    &im2col_nd_entry, &col2im_nd_entry,
    // ---- float16/bfloat16 on CUDA (issue 15) ----
    &kernel_dtype_supported,
    // ---- dense linear algebra on cuSOLVER (issue 14) ----
    &linalg_entry,
    // ---- recurrent layers on CUDA (issue 14) ----
    &rnn_step_entry,
    // ---- more reductions (issue 14) ----
    &logcumsumexp_entry,
    // ---- native float16/bfloat16 kernels (issue 15, cudanative) ----
    &reduce_to_entry,
    // ---- native float16/bfloat16 kernels (issue 15, cudahalf3) ----
    &sgd_entry, &norm_apply_entry,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const ct_cuda_backend* ct_cuda_backend_entry_v1(uint32_t version) {
    return version == CT_CUDA_BACKEND_VERSION ? &kTable : nullptr;
}

// Test hook: device-to-host memcpy calls so far (tests/test_cuda_rnn.cpp shows an op takes no host round trip).
extern "C" __attribute__((visibility("default"))) int64_t ct_emulated_cuda_host_reads(void) { return g_host_reads.load(); }
// Test hook of the emulated backend only (tests/test_cuda_half.cpp finds it with dlsym): counts[0] = device
// allocations, counts[1] = half -> float32 copies, both since the process started.
extern "C" __attribute__((visibility("default"))) void ct_emulated_cuda_counters(int64_t counts[2]) {
    counts[0] = g_mallocs.load();
    counts[1] = g_half_widenings.load();
}

// ---- Emulated NCCL (ct_nccl_backend_entry_v1): emulated device memory is host memory, so a device communicator
// is a communicator of the host backend split off the group's own (collective, like ncclCommInitRank), and its
// requests are the host backend's. This runs the core's whole device path (agreement on the device type,
// communicators made on first use, polling, MEAN on the device) under mpirun in CPU-only CI. ----
#include "distributed/dist_backend.h"

struct ct_dist_comm_s {
    const ct_dist_backend* host;
    ct_dist_comm* inner;
};
struct ct_dist_req_s {
    const ct_dist_backend* host;
    ct_dist_req* inner;
};

namespace {

std::atomic<const ct_dist_backend*> g_nccl_host{nullptr};  // the host backend, for last_error

const char* nccl_last_error() {
    const ct_dist_backend* h = g_nccl_host.load();
    return h ? h->last_error() : t_error.c_str();
}

int32_t nccl_world(ct_dist_comm**, int32_t*, int32_t*) { return set_error(CT_ERR_INTERNAL, "emulated NCCL: no world"); }

int32_t nccl_split(ct_dist_comm*, int32_t, int32_t, ct_dist_comm**, int32_t*, int32_t*) {
    return set_error(CT_ERR_INTERNAL, "emulated NCCL: no split");
}

void nccl_comm_free(ct_dist_comm* c) {
    if (!c) return;
    c->host->comm_free(c->inner);
    delete c;
}

int32_t nccl_start(ct_dist_comm* c, const ct_dist_args* a, ct_dist_req** out) {
    if (a->kind == CT_DIST_BARRIER) return set_error(CT_ERR_INTERNAL, "emulated NCCL: a barrier is not a device request");
    ct_dist_req* inner = nullptr;
    if (int32_t st = c->host->start(c->inner, a, &inner)) return st;
    *out = new ct_dist_req_s{c->host, inner};
    return CT_OK;
}

int32_t nccl_test(ct_dist_req* r, int32_t* done) {
    int32_t st = r->host->test(r->inner, done);
    if (*done) delete r;
    return st;
}

int32_t nccl_cancel(ct_dist_req* r) {
    if (!r->host->cancel(r->inner)) return 0;
    delete r;
    return 1;
}

int32_t nccl_run(ct_dist_comm* c, const ct_dist_args* a) { return c->host->run(c->inner, a); }

int32_t nccl_comm_init(const ct_dist_backend* host, ct_dist_comm* host_comm, int32_t rank, int32_t size, int32_t device,
                       ct_dist_comm** out) {
    if (device < 0 || device >= device_count())
        return set_error(CT_ERR_DEVICE, "emulated NCCL: invalid device cuda:" + std::to_string(device));
    g_nccl_host.store(host);
    ct_dist_comm* inner = nullptr;
    int32_t r = -1, s = 0;
    if (int32_t st = host->split(host_comm, 1, rank, &inner, &r, &s)) return st;
    if (r != rank || s != size) {
        host->comm_free(inner);
        return set_error(CT_ERR_INTERNAL, "emulated NCCL: the split communicator has rank " + std::to_string(r) +
                                              " of " + std::to_string(s) + ", expected " + std::to_string(rank) +
                                              " of " + std::to_string(size));
    }
    *out = new ct_dist_comm_s{host, inner};
    return CT_OK;
}

const ct_dist_backend kNcclTable = {
    CT_DIST_BACKEND_VERSION, sizeof(ct_dist_backend), CT_DEVICE_CUDA, "nccl (emulated)", &nccl_last_error, &nccl_world,
    &nccl_split, &nccl_comm_free, &nccl_start, &nccl_test, &nccl_cancel, &nccl_run, &nccl_comm_init,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const ct_dist_backend* ct_nccl_backend_entry_v1(uint32_t version) {
    return version == CT_DIST_BACKEND_VERSION ? &kNcclTable : nullptr;
}
