// test_cuda_kernels_ops.cpp - the unary, where, reduction and cumsum launchers (cuda/unary.cuh, cuda/reduce.cuh)
// compiled as host C++ through cuda/emulation.h: bad requests are refused before any launch, and a reduction
// over a hand-built strided layout matches a plain loop, with a tiny grid so the grid-stride loops wrap.
#include "cuda/emulation.h"
#include "cuda/reduce.cuh"
#include "cuda/unary.cuh"
#include <cmath>
#include <vector>
#include "ct_test.h"

using namespace ct::cuda;

namespace {
constexpr LaunchConfig kTiny{3, 7};

// Host blocks posing as device scratch (the launchers run synchronously under emulation).
struct HostScratch {
    std::vector<std::vector<double>> blocks;
    void* take(size_t n) {
        blocks.emplace_back((n + sizeof(double) - 1) / sizeof(double));
        return blocks.back().data();
    }
};
const TakeScratch kNoScratch = [](size_t) -> void* { return nullptr; };
}  // namespace

TEST(CudaKernelsOps, BadRequestsAreRefusedBeforeLaunching) {
    int32_t out[4] = {}, in[4] = {1, 2, 3, 4};
    ct_cuda_layout L{};
    L.ndim = 1;
    L.nargs = 2;
    L.sizes[0] = 4;
    L.strides[0][0] = L.strides[1][0] = 1;
    int64_t before = ct::emu::launches;
    EXPECT_EQ(launch_unary(kTiny, nullptr, L, CT_CUDA_EXP, out, in, CT_INT32, 0, 0), CT_ERR_DTYPE);
    EXPECT_EQ(launch_unary(kTiny, nullptr, L, CT_CUDA_NUM_UNARY_OPS, out, in, CT_INT32, 0, 0), CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(launch_unary(kTiny, nullptr, L, CT_CUDA_NEG, out, in, 42, 0, 0), CT_ERR_DTYPE);
    ct_cuda_layout4 L4{};
    L4.nargs = 3;
    EXPECT_EQ(launch_where(kTiny, nullptr, L4, out, in, in, in, CT_INT32), CT_ERR_INVALID_ARGUMENT);
    ct_cuda_reduce_layout R{};
    R.reduced_ndim = 1;
    R.reduced_sizes[0] = 4;
    R.reduced_strides[0] = 1;
    EXPECT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_VAR, out, nullptr, in, CT_INT32, 1, kNoScratch),
              CT_ERR_DTYPE);
    EXPECT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_MAX, nullptr, nullptr, in, CT_INT32, 0, kNoScratch),
              CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_NUM_REDUCE_OPS, out, nullptr, in, CT_INT32, 0, kNoScratch),
              CT_ERR_INVALID_ARGUMENT);
    R.reduced_sizes[0] = 0;  // max of nothing has no identity
    EXPECT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_MIN, out, nullptr, in, CT_INT32, 0, kNoScratch),
              CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(launch_cumsum(kTiny, nullptr, in, CT_INT32, 1, 4, 1, 0), CT_ERR_DTYPE);
    EXPECT_EQ(ct::emu::launches, before);
    EXPECT_EQ(out[0], 0);
}

// x[a][b][c] of shape [5, 4, 6] reduced over a and c (kept b), through strides of a transposed buffer.
TEST(CudaKernelsOps, StridedReductionMatchesALoop) {
    const int64_t A = 5, B = 4, C = 6;
    std::vector<double> buf((size_t)(A * B * C));
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = std::sin((double)i) * 3;
    // element (a, b, c) lives at c * A * B + a * B + b (a permuted layout)
    ct_cuda_reduce_layout R{};
    R.kept_ndim = 1;
    R.kept_sizes[0] = B;
    R.kept_strides[0] = 1;
    R.reduced_ndim = 2;
    R.reduced_sizes[0] = A;
    R.reduced_strides[0] = B;
    R.reduced_sizes[1] = C;
    R.reduced_strides[1] = A * B;
    double sums[4], maxima[4];
    int64_t where_max[4];
    ASSERT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_SUM, sums, nullptr, buf.data(), CT_FLOAT64, 0, kNoScratch),
              CT_OK);
    ASSERT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_MAX, maxima, where_max, buf.data(), CT_FLOAT64, 0,
                            kNoScratch),
              CT_OK);
    for (int64_t b = 0; b < B; ++b) {
        double s = 0, m = -INFINITY;
        int64_t at = -1;
        for (int64_t a = 0; a < A; ++a)
            for (int64_t c = 0; c < C; ++c) {
                double v = buf[(size_t)(c * A * B + a * B + b)];
                s += v;
                if (v > m) m = v, at = a * C + c;  // row-major index over the reduced dims (a, c)
            }
        EXPECT_NEAR(sums[b], s, 1e-12);
        EXPECT_EQ(maxima[b], m);
        EXPECT_EQ(where_max[b], at);
    }
}

// Note [CUDA reduction plan]: long slices are folded in parts whose partials merge passes combine, in rows mode
// (reduced dim unit-stride), columns mode (outputs unit-stride) and for one output (a full sum). Every plan must give
// the plain loop's sums and the first index of each maximum (ties repeat the maximum), with scratch and without it
// (no scratch: one thread per output); a small input runs in one launch.
TEST(CudaKernelsOps, SplitReductionPlansMatchALoop) {
    struct Case {
        const char* name;
        int64_t rows, cols;
        bool reduce_rows;  // reduce dim 0 (columns mode) or dim 1 (rows mode)
    };
    const Case cases[] = {{"full sum", 1, 70001, false}, {"rows", 7, 10000, false}, {"columns", 30001, 5, true},
                          {"one long column", 70000, 1, true}, {"small: one launch", 50, 1000, false}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        std::vector<double> buf((size_t)(c.rows * c.cols));
        for (size_t i = 0; i < buf.size(); ++i) buf[i] = std::floor(std::sin((double)i * 0.37) * 50);  // many ties
        ct_cuda_reduce_layout R{};
        R.kept_ndim = R.reduced_ndim = 1;
        R.kept_sizes[0] = c.reduce_rows ? c.cols : c.rows;
        R.kept_strides[0] = c.reduce_rows ? 1 : c.cols;
        R.reduced_sizes[0] = c.reduce_rows ? c.rows : c.cols;
        R.reduced_strides[0] = c.reduce_rows ? c.cols : 1;
        const int64_t n_out = R.kept_sizes[0], n_red = R.reduced_sizes[0];
        const bool small = n_out * n_red < kPlanSmall;
        EXPECT_EQ(plan_reduce(R, n_out, n_red, sizeof(double)).parts > 1, !small);
        EXPECT_EQ(plan_reduce(R, n_out, n_red, sizeof(double)).columns, c.reduce_rows && c.cols > 1);
        for (bool with_scratch : {true, false}) {
            SCOPED_TRACE(with_scratch ? "parts" : "one thread per output");
            HostScratch host;
            TakeScratch take = [&](size_t n) { return host.take(n); };
            const TakeScratch& t = with_scratch ? take : kNoScratch;
            std::vector<double> sums((size_t)n_out), maxima((size_t)n_out);
            std::vector<int64_t> where((size_t)n_out);
            int64_t before = ct::emu::launches;
            ASSERT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_SUM, sums.data(), nullptr, buf.data(), CT_FLOAT64,
                                    0, t), CT_OK);
            EXPECT_EQ(ct::emu::launches - before > 1, with_scratch && !small);  // a parts pass, then merge passes
            ASSERT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_MAX, maxima.data(), where.data(), buf.data(),
                                    CT_FLOAT64, 0, t), CT_OK);
            for (int64_t o = 0; o < n_out; ++o) {
                double s = 0, m = -INFINITY;
                int64_t at = -1;
                for (int64_t i = 0; i < n_red; ++i) {
                    double v = buf[(size_t)(o * R.kept_strides[0] + i * R.reduced_strides[0])];
                    s += v;
                    if (v > m) m = v, at = i;
                }
                ASSERT_NEAR(sums[(size_t)o], s, 1e-9) << "output " << o;
                ASSERT_EQ(maxima[(size_t)o], m) << "output " << o;
                ASSERT_EQ(where[(size_t)o], at) << "output " << o;
            }
        }
    }
}
