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
    EXPECT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_VAR, out, nullptr, in, CT_INT32, 1), CT_ERR_DTYPE);
    EXPECT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_MAX, nullptr, nullptr, in, CT_INT32, 0),
              CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_NUM_REDUCE_OPS, out, nullptr, in, CT_INT32, 0),
              CT_ERR_INVALID_ARGUMENT);
    R.reduced_sizes[0] = 0;  // max of nothing has no identity
    EXPECT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_MIN, out, nullptr, in, CT_INT32, 0),
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
    ASSERT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_SUM, sums, nullptr, buf.data(), CT_FLOAT64, 0), CT_OK);
    ASSERT_EQ(launch_reduce(kTiny, nullptr, R, CT_CUDA_REDUCE_MAX, maxima, where_max, buf.data(), CT_FLOAT64, 0), CT_OK);
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
