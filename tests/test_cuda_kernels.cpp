// test_cuda_kernels.cpp - the CUDA backend's own kernels compiled as host C++ through cuda/emulation.h and
// run on CPU tensors (strided, broadcast, odd-sized, empty, 0-d) against the CPU ops; the caching allocator's
// logic on fake memory; and the row-major -> column-major GEMM mapping handed to cuBLAS.
#include "cuda/emulation.h"
#include "cuda/caching_allocator.h"
#include "cuda/elementwise.cuh"
#include "cuda/gemm_args.h"
#include <cmath>
#include <functional>
#include <map>
#include "ct_test.h"

using namespace ctt;
using ct::cuda::LaunchConfig;

namespace {

// Few blocks of an odd size, so every emulated thread walks the grid-stride loop many times.
constexpr LaunchConfig kTiny{3, 7};
const ct_dtype kAllDtypes[] = {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL};

void* ptr(const H& t) {
    void* p = nullptr;
    ok(ct_tensor_data_ptr(t.get(), &p));
    return p;
}

Shape strides(const H& t) {
    int32_t nd = 0;
    ok(ct_tensor_strides(t.get(), nullptr, 0, &nd));
    Shape s((size_t)nd);
    ok(ct_tensor_strides(t.get(), s.data(), nd, &nd));
    return s;
}

// The coalesced layout of operands sharing the shape of ts[0] (as the core builds it for the backend).
ct_cuda_layout layout_of(const std::vector<const H*>& ts) {
    Shape sizes = shape(*ts[0]);
    std::vector<Shape> st;
    for (const H* t : ts) st.push_back(strides(*t));
    std::vector<const int64_t*> sp;
    for (auto& s : st) sp.push_back(s.data());
    ct_cuda_layout L;
    EXPECT_TRUE(ct::make_cuda_layout((int32_t)sizes.size(), sizes.data(), sp.data(), (int32_t)ts.size(), &L));
    return L;
}

H expand_to(const H& t, const Shape& s) {
    H out;
    ok(ct_expand(t.get(), s.data(), (int32_t)s.size(), out.out()));
    return out;
}

H empty_of(const Shape& s, ct_dtype dt) {
    H out;
    ok(ct_empty(s.data(), (int32_t)s.size(), dt, ct_cpu(), out.out()));
    return out;
}

H transpose(const H& t, int64_t a, int64_t b) {
    H out;
    ok(ct_transpose(t.get(), a, b, out.out()));
    return out;
}

H slice(const H& t, int64_t dim, int64_t start, int64_t end, int64_t step) {
    H out;
    ok(ct_slice(t.get(), dim, start, end, step, out.out()));
    return out;
}

// Values suited to dtype: small integers (with repeats, so comparisons see ties), 0/1 for bool, NaN for floats.
H values_for(const Shape& s, ct_dtype dt, uint64_t seed) {
    size_t n = 1;
    for (auto d : s) n *= (size_t)d;
    std::vector<double> v = rand_values(n, seed, dt == CT_UINT8 ? 0.0 : -6.0, 6.0);
    for (size_t i = 0; i < n; ++i) {
        if (dt == CT_BOOL) v[i] = v[i] > 0 ? 1 : 0;
        else if (dt == CT_FLOAT32 || dt == CT_FLOAT64) v[i] = (i % 11 == 5) ? NAN : std::round(v[i] * 2) / 2;
        else v[i] = std::floor(v[i]);
    }
    return make(v, s, dt);
}

// Exact equality of two tensors' values, NaN equal to NaN (same functors, same precision: same bits).
::testing::AssertionResult same_values(const H& got, const H& want) {
    if (shape(got) != shape(want)) return ::testing::AssertionFailure() << "shapes differ";
    if (dtype(got) != dtype(want)) return ::testing::AssertionFailure() << "dtypes differ";
    auto g = values(got), w = values(want);
    for (size_t i = 0; i < g.size(); ++i)
        if (!(g[i] == w[i] || (std::isnan(g[i]) && std::isnan(w[i]))))
            return ::testing::AssertionFailure() << "element " << i << ": got " << g[i] << ", want " << w[i];
    return ::testing::AssertionSuccess();
}

struct BinaryCase {
    int32_t op;
    const char* name;
    std::function<ct_status(ct_tensor, ct_tensor, ct_tensor*)> cpu;  // the CPU op giving the expected result
    double alpha;
    bool floats_only, no_bool, no_unsigned;
};

std::vector<BinaryCase> binary_cases() {
    auto add2 = [](ct_tensor a, ct_tensor b, ct_tensor* o) { return ct_add(a, b, 2.0, o); };
    auto sub3 = [](ct_tensor a, ct_tensor b, ct_tensor* o) { return ct_sub(a, b, 3.0, o); };
    return {
        {CT_CUDA_ADD, "add", add2, 2.0, false, true, false},
        {CT_CUDA_ADD, "add (bool, alpha 1)", [](ct_tensor a, ct_tensor b, ct_tensor* o) { return ct_add(a, b, 1.0, o); }, 1.0, false, false, false},
        {CT_CUDA_ADD, "sub as add(-alpha)", sub3, -3.0, false, true, true},
        {CT_CUDA_MUL, "mul", ct_mul, 1, false, false, false},
        {CT_CUDA_DIV, "div", ct_div, 1, true, true, true},
        {CT_CUDA_MAXIMUM, "maximum", ct_maximum, 1, false, false, false},
        {CT_CUDA_MINIMUM, "minimum", ct_minimum, 1, false, false, false},
        {CT_CUDA_EQ, "eq", ct_eq, 1, false, false, false},
        {CT_CUDA_NE, "ne", ct_ne, 1, false, false, false},
        {CT_CUDA_LT, "lt", ct_lt, 1, false, false, false},
        {CT_CUDA_LE, "le", ct_le, 1, false, false, false},
        {CT_CUDA_GT, "gt", ct_gt, 1, false, false, false},
        {CT_CUDA_GE, "ge", ct_ge, 1, false, false, false},
        {CT_CUDA_LOGICAL_AND, "logical_and", ct_logical_and, 1, false, false, false},
        {CT_CUDA_LOGICAL_OR, "logical_or", ct_logical_or, 1, false, false, false},
        {CT_CUDA_LOGICAL_XOR, "logical_xor", ct_logical_xor, 1, false, false, false},
    };
}

// Runs one emulated binary kernel on a, b (same dtype) and compares with the CPU op.
void check_binary(const BinaryCase& c, const H& a, const H& b, ct_dtype dt) {
    SCOPED_TRACE(std::string(c.name) + " " + ct_dtype_name(dt));
    H want;
    ok(c.cpu(a.get(), b.get(), want.out()));
    Shape s = shape(want);
    H out = empty_of(s, dtype(want)), ea = expand_to(a, s), eb = expand_to(b, s);
    ct_cuda_layout L = layout_of({&out, &ea, &eb});
    int64_t before = ct::emu::launches;
    ASSERT_EQ(ct::cuda::launch_binary(kTiny, nullptr, L, c.op, ptr(out), ptr(ea), ptr(eb), dt, c.alpha), CT_OK);
    int64_t n = 1;
    for (auto d : s) n *= d;
    EXPECT_EQ(ct::emu::launches - before, n > 0 ? 1 : 0);  // empty tensors launch nothing
    EXPECT_TRUE(same_values(out, want));
}

// (a, b) pairs: contiguous odd-sized (Note [Vectorized contiguous kernels]), misaligned, broadcast, transposed vs sliced,
// scalar vs matrix, 0-d, empty, and rows of contiguous runs.
std::vector<std::pair<H, H>> binary_inputs(ct_dtype dt) {
    std::vector<std::pair<H, H>> r;
    r.emplace_back(values_for({1031}, dt, 1), values_for({1031}, dt, 2));  // vectors and a tail
    // contiguous but one element past an aligned start: not vector-aligned, the strided kernel runs
    r.emplace_back(slice(values_for({1032}, dt, 13), 0, 1, 1032, 1), values_for({1031}, dt, 14));
    r.emplace_back(values_for({3, 1, 5}, dt, 3), values_for({4, 1}, dt, 4));
    r.emplace_back(transpose(values_for({5, 6}, dt, 5), 0, 1), slice(values_for({6, 10}, dt, 6), 1, 1, 10, 2));
    r.emplace_back(values_for({}, dt, 7), transpose(values_for({3, 2, 7}, dt, 8), 0, 2));
    r.emplace_back(values_for({}, dt, 9), values_for({}, dt, 10));
    r.emplace_back(values_for({0, 3}, dt, 11), values_for({3}, dt, 12));
    // rows of contiguous runs (the rows form of the note): a bias-like row, rows with gaps, rows some V cannot tile
    r.emplace_back(values_for({5, 32}, dt, 15), values_for({32}, dt, 16));
    r.emplace_back(slice(values_for({6, 48}, dt, 17), 1, 0, 32, 1), values_for({6, 32}, dt, 18));
    r.emplace_back(values_for({3, 20}, dt, 19), values_for({20}, dt, 20));
    return r;
}

}  // namespace

TEST(CudaKernels, BinaryOpsMatchCpuForAllDtypesAndLayouts) {
    for (ct_dtype dt : kAllDtypes) {
        bool is_float = dt == CT_FLOAT32 || dt == CT_FLOAT64;
        for (const BinaryCase& c : binary_cases()) {
            if ((c.floats_only && !is_float) || (c.no_bool && dt == CT_BOOL) || (c.no_unsigned && dt == CT_UINT8)) continue;
            if (c.alpha == 1.0 && c.op == CT_CUDA_ADD && dt != CT_BOOL) continue;  // the bool-only add case
            for (auto& ab : binary_inputs(dt)) check_binary(c, ab.first, ab.second, dt);
        }
    }
}

TEST(CudaKernels, BinaryRejectsBadRequests) {
    H a = values_for({4}, CT_INT32, 1), out = empty_of({4}, CT_INT32);
    ct_cuda_layout L = layout_of({&out, &a, &a});
    EXPECT_EQ(ct::cuda::launch_binary(kTiny, nullptr, L, CT_CUDA_DIV, ptr(out), ptr(a), ptr(a), CT_INT32, 1), CT_ERR_DTYPE);
    EXPECT_EQ(ct::cuda::launch_binary(kTiny, nullptr, L, CT_CUDA_NUM_BINARY_OPS_V2, ptr(out), ptr(a), ptr(a), CT_INT32, 1),
              CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ct::cuda::launch_binary(kTiny, nullptr, L, CT_CUDA_ADD, ptr(out), ptr(a), ptr(a), 42, 1), CT_ERR_DTYPE);
    ct_cuda_layout two = layout_of({&out, &a});
    EXPECT_EQ(ct::cuda::launch_binary(kTiny, nullptr, two, CT_CUDA_ADD, ptr(out), ptr(a), ptr(a), CT_INT32, 1),
              CT_ERR_INVALID_ARGUMENT);
}

TEST(CudaKernels, CopyConvertsEveryDtypePairThroughStrides) {
    for (ct_dtype src_dt : kAllDtypes) {
        for (ct_dtype dst_dt : kAllDtypes) {
            SCOPED_TRACE(std::string(ct_dtype_name(src_dt)) + " -> " + ct_dtype_name(dst_dt));
            std::vector<double> v = rand_values(28, 17, 0.0, 20.0);  // non-negative: valid for uint8 casts
            for (auto& x : v) x = std::round(x * 2) / 2;
            H src = transpose(make(v, {4, 7}, src_dt), 0, 1);  // [7, 4], strided
            H want;
            ok(ct_to_dtype(src.get(), dst_dt, want.out()));
            // destination: every other column of a zero matrix, so untouched elements must stay 0
            H base;
            int64_t bs[2] = {7, 8};
            ok(ct_zeros(bs, 2, dst_dt, ct_cpu(), base.out()));
            H dst = slice(base, 1, 0, 8, 2);
            ct_cuda_layout L = layout_of({&dst, &src});
            ASSERT_EQ(ct::cuda::launch_copy(kTiny, nullptr, L, ptr(dst), dst_dt, ptr(src), src_dt), CT_OK);
            EXPECT_TRUE(same_values(dst, want));
            auto all = values(base);
            for (size_t i = 1; i < all.size(); i += 2) EXPECT_EQ(all[i], 0.0) << "element " << i << " was written";
        }
    }
}

TEST(CudaKernels, FillWritesOnlyTheView) {
    for (ct_dtype dt : kAllDtypes) {
        SCOPED_TRACE(ct_dtype_name(dt));
        H base;
        int64_t bs[2] = {5, 8};
        ok(ct_zeros(bs, 2, dt, ct_cpu(), base.out()));
        H view = slice(transpose(base, 0, 1), 0, 1, 8, 3);  // rows 1, 4, 7 of the transpose = columns of base
        ct_cuda_layout L = layout_of({&view});
        ASSERT_EQ(ct::cuda::launch_fill(kTiny, nullptr, L, ptr(view), dt, 2.5), CT_OK);
        double expect = dt == CT_BOOL ? 1.0 : (dt == CT_FLOAT32 || dt == CT_FLOAT64 ? 2.5 : 2.0);
        auto all = values(base);
        for (int64_t r = 0; r < 5; ++r)
            for (int64_t c = 0; c < 8; ++c)
                EXPECT_EQ(all[(size_t)(r * 8 + c)], c % 3 == 1 ? expect : 0.0) << r << "," << c;
    }
}

TEST(CudaKernels, LayoutCoalescesAndCapsDims) {
    H a = values_for({2, 3, 4}, CT_FLOAT32, 1);
    ct_cuda_layout L = layout_of({&a});
    EXPECT_EQ(L.ndim, 1);  // contiguous: one run
    EXPECT_EQ(L.sizes[0], 24);
    H t = transpose(a, 0, 2);
    ct_cuda_layout Lt = layout_of({&t});
    EXPECT_EQ(Lt.ndim, 3);
    // 13 dims whose strides grow inwards cannot merge: more than CT_CUDA_MAX_DIMS, so the core must split
    Shape sizes(13, 2), st(13);
    for (size_t i = 0; i < 13; ++i) st[i] = int64_t(1) << i;
    const int64_t* sp[1] = {st.data()};
    ct_cuda_layout big;
    EXPECT_FALSE(ct::make_cuda_layout(13, sizes.data(), sp, 1, &big));
    EXPECT_EQ(ct::cuda::blocks_for(1031, kTiny), 3u);
    EXPECT_EQ(ct::cuda::blocks_for(5, LaunchConfig{100, 4}), 2u);
    EXPECT_EQ(ct::cuda::blocks_for(0, LaunchConfig{100, 4}), 1u);
}

namespace {
// Reference column-major GEMM (BLAS semantics): C = op(A) op(B), element (i, j) at c[i + j * ldc].
void reference_column_major(const ct::cuda::ColumnMajorGemm& g) {
    for (int64_t bt = 0; bt < g.batch; ++bt) {
        const double* A = static_cast<const double*>(g.first) + bt * g.stride_first;
        const double* B = static_cast<const double*>(g.second) + bt * g.stride_second;
        double* C = static_cast<double*>(g.c) + bt * g.stride_c;
        for (int64_t i = 0; i < g.m; ++i)
            for (int64_t j = 0; j < g.n; ++j) {
                double s = 0;
                for (int64_t p = 0; p < g.k; ++p) {
                    double a = g.trans_first ? A[p + i * g.ld_first] : A[i + p * g.ld_first];
                    double b = g.trans_second ? B[j + p * g.ld_second] : B[p + j * g.ld_second];
                    s += a * b;
                }
                C[i + j * g.ldc] = s;
            }
    }
}
}  // namespace

TEST(CudaKernels, RowMajorGemmMapsToColumnMajorCall) {
    const int64_t m = 3, n = 5, k = 4, batch = 2, pad = 2;
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb) {
            SCOPED_TRACE("trans_a " + std::to_string(ta) + " trans_b " + std::to_string(tb));
            int64_t a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
            int64_t lda = a_cols + pad, ldb = b_cols + pad, ldc = n + pad;
            std::vector<double> A = rand_values((size_t)(batch * a_rows * lda), 1), B = rand_values((size_t)(batch * b_rows * ldb), 2);
            std::vector<double> C((size_t)(batch * m * ldc), -7.0);
            ct::cuda::RowMajorGemm rm{ta != 0, tb != 0, m, n, k, A.data(), lda, a_rows * lda, B.data(), ldb,
                                      b_rows * ldb, C.data(), ldc, m * ldc, batch};
            ASSERT_EQ(ct::cuda::check_row_major_gemm(rm), nullptr);
            reference_column_major(ct::cuda::to_column_major(rm));
            for (int64_t bt = 0; bt < batch; ++bt)
                for (int64_t i = 0; i < m; ++i)
                    for (int64_t j = 0; j < n; ++j) {
                        double s = 0;
                        for (int64_t p = 0; p < k; ++p) {
                            double a = ta ? A[(size_t)(bt * a_rows * lda + p * lda + i)] : A[(size_t)(bt * a_rows * lda + i * lda + p)];
                            double b = tb ? B[(size_t)(bt * b_rows * ldb + j * ldb + p)] : B[(size_t)(bt * b_rows * ldb + p * ldb + j)];
                            s += a * b;
                        }
                        EXPECT_NEAR(C[(size_t)(bt * m * ldc + i * ldc + j)], s, 1e-12) << bt << ":" << i << "," << j;
                    }
        }
    ct::cuda::RowMajorGemm bad{false, false, 3, 5, 4, nullptr, 3, 0, nullptr, 5, 0, nullptr, 5, 0, 1};
    EXPECT_STREQ(ct::cuda::check_row_major_gemm(bad), "lda is smaller than a row of A");
}

namespace {
// Fake device memory: distinct addresses, a capacity, counted calls.
struct FakeMemory {
    struct State {
        int64_t capacity = 1 << 20, used = 0, allocs = 0, frees = 0;
        uintptr_t next = 4096;
        std::map<void*, size_t> live;
    };
    State* s;
    int32_t allocate(int32_t, size_t n, void** p, std::string* error) {
        if (s->used + (int64_t)n > s->capacity) {
            *error = "fake device full";
            return CT_ERR_OUT_OF_MEMORY;
        }
        s->used += (int64_t)n;
        ++s->allocs;
        *p = reinterpret_cast<void*>(s->next);
        s->live[*p] = n;
        s->next += n;
        return CT_OK;
    }
    void free(int32_t, void* p) {
        ++s->frees;
        s->used -= (int64_t)s->live.at(p);
        s->live.erase(p);
    }
    std::string describe(int32_t) { return "fake device"; }
};
}  // namespace

TEST(CudaKernels, CachingAllocatorBucketsReusesAndRetries) {
    using ct::cuda::bucket_size;
    for (size_t n : {size_t(1), size_t(512), size_t(513), size_t(1000), size_t(4096), size_t(5000), size_t(1) << 30,
                     (size_t(1) << 30) + 1}) {
        size_t b = bucket_size(n);
        EXPECT_GE(b, n);
        EXPECT_LE(b, std::max<size_t>(512, n + n / 4 + 1)) << n;  // at most 25% waste
        EXPECT_EQ(b % 128, 0u) << n;
        EXPECT_EQ(bucket_size(b), b) << n;  // a bucket size is its own bucket
    }
    EXPECT_EQ(bucket_size(1000), bucket_size(1024));  // nearby sizes share a bucket

    FakeMemory::State st;
    ct::cuda::CachingAllocator<FakeMemory> alloc(FakeMemory{&st});
    void *a = nullptr, *b = nullptr;
    std::string err;
    int64_t stats[3];
    ASSERT_EQ(alloc.allocate(0, 600 << 10, &a, &err), CT_OK);
    alloc.release(0, a, 600 << 10);
    ASSERT_EQ(alloc.allocate(0, (600 << 10) - 7, &b, &err), CT_OK);  // same bucket: the cached block again
    EXPECT_EQ(a, b);
    EXPECT_EQ(st.allocs, 1);
    alloc.stats(0, stats);
    EXPECT_EQ(stats[0], (int64_t)bucket_size(600 << 10));
    EXPECT_EQ(stats[1], stats[0]);
    alloc.release(0, b, (600 << 10) - 7);
    alloc.stats(0, stats);
    EXPECT_EQ(stats[0], 0);
    EXPECT_EQ(stats[1], (int64_t)bucket_size(600 << 10));  // kept in the cache
    EXPECT_EQ(stats[2], (int64_t)bucket_size(600 << 10));  // peak
    // 700 KiB fits on the 1 MiB device only after the cached 600 KiB block is returned: freed, then retried
    ASSERT_EQ(alloc.allocate(0, 700 << 10, &a, &err), CT_OK) << err;
    EXPECT_EQ(st.frees, 1);
    EXPECT_EQ(st.allocs, 2);  // the first block and the retry (the failed attempt allocated nothing)
    alloc.stats(0, stats);
    EXPECT_EQ(stats[1], stats[0]);  // nothing cached any more
    // beyond the device even with an empty cache: a status and a message with the numbers
    EXPECT_EQ(alloc.allocate(0, 2 << 20, &b, &err), CT_ERR_OUT_OF_MEMORY);
    EXPECT_NE(err.find("out of memory: cannot allocate 2097152 bytes on cuda:0 (fake device full"), std::string::npos) << err;
    alloc.release(0, a, 700 << 10);
    alloc.empty_cache();
    EXPECT_EQ(st.used, 0);
    alloc.stats(0, stats);
    EXPECT_EQ(stats[1], 0);
}
