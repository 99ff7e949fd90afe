// test_cuda_ops.cpp - the unary, where/pow/atan2/remainder, reduction and cumsum ops on CUDA against the CPU:
// every dtype each op accepts, on strided, broadcast, odd-sized, 0-d and empty inputs (run for real against
// the emulated backend in the ctest ctensor_tests_emulated_cuda; skipped with the reason without a device).
#include <cmath>
#include <functional>
#include <string>
#include "ct_test.h"

using namespace ctt;

namespace {

#define REQUIRE_CUDA()                                                              \
    do {                                                                            \
        char why_[512] = "";                                                        \
        if (!ct_cuda_is_available(why_, sizeof why_)) GTEST_SKIP() << "no CUDA device: " << why_; \
    } while (0)

const ct_dtype kDtypes[] = {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL};

H on(const H& t, ct_device d) {
    H out;
    ok(ct_to_device(t.get(), d, out.out()));
    return out;
}

// Test values for dtype: halves in [-5, 5) (non-negative for uint8, 0/1 for bool), with repeats.
H sample(const Shape& s, ct_dtype dt, uint64_t seed) {
    size_t n = 1;
    for (auto d : s) n *= (size_t)d;
    std::vector<double> v = rand_values(n, seed, dt == CT_UINT8 ? 0.0 : -5.0, 5.0);
    for (auto& x : v) x = dt == CT_BOOL ? (x > 0) : std::floor(x * 2) / 2;
    return make(v, s, dt);
}

H transposed(const H& t) {
    H o;
    ok(ct_transpose(t.get(), 0, 1, o.out()));
    return o;
}

// Inputs of one case: the same CPU tensor, viewed by view on each device.
struct Input {
    Shape shape;
    bool transpose;
};
const Input kInputs[] = {{{1031}, false}, {{6, 5}, true}, {{}, false}, {{0, 3}, false}, {{3, 4, 5}, false}};

H view_of(const H& t, const Input& in) { return in.transpose ? transposed(t) : t; }

using Fn1 = std::function<ct_status(ct_tensor, ct_tensor*)>;

// f(x) on both devices: same status; on success same shape, dtype and values (NaN matches NaN).
void compare1(const char* name, const Fn1& f, const H& x_cpu, double tol = 1e-6) {
    SCOPED_TRACE(name);
    H want, got, x_dev = on(x_cpu, ct_cuda(0));
    ct_status st_cpu = f(x_cpu.get(), want.out());
    ct_status st_dev = f(x_dev.get(), got.out());
    ASSERT_EQ(st_dev, st_cpu) << ct_last_error();
    if (st_cpu != CT_OK) return;
    EXPECT_TRUE(is_cuda(got));
    EXPECT_EQ(shape(got), shape(want));
    EXPECT_EQ(dtype(got), dtype(want));
    EXPECT_TRUE(allclose(got, values(want), tol, tol));
}

}  // namespace

TEST(CudaGpu, UnaryOpsMatchCpuOnEveryDtype) {
    REQUIRE_CUDA();
    const std::pair<const char*, ct_status (*)(ct_tensor, ct_tensor*)> ops[] = {
        {"neg", ct_neg}, {"abs", ct_abs}, {"sign", ct_sign}, {"exp", ct_exp}, {"log", ct_log},
        {"log1p", ct_log1p}, {"expm1", ct_expm1}, {"sqrt", ct_sqrt}, {"rsqrt", ct_rsqrt}, {"sin", ct_sin},
        {"cos", ct_cos}, {"tan", ct_tan}, {"tanh", ct_tanh}, {"sigmoid", ct_sigmoid}, {"relu", ct_relu},
        {"gelu", ct_gelu}, {"silu", ct_silu}, {"softplus", ct_softplus}, {"floor", ct_floor}, {"ceil", ct_ceil},
        {"round", ct_round}, {"reciprocal", ct_reciprocal}, {"logical_not", ct_logical_not},
    };
    for (ct_dtype dt : kDtypes)
        for (const Input& in : kInputs) {
            SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " shape rank " + std::to_string(in.shape.size()));
            H x = view_of(sample(in.shape, dt, 3), in);
            for (auto& op : ops) compare1(op.first, op.second, x);
            compare1("pow_scalar 3", [](ct_tensor a, ct_tensor* o) { return ct_pow_scalar(a, 3.0, o); }, x);
            compare1("pow_scalar 0.5", [](ct_tensor a, ct_tensor* o) { return ct_pow_scalar(a, 0.5, o); }, x);
            compare1("clamp", [](ct_tensor a, ct_tensor* o) { return ct_clamp(a, -1.5, 1, 2, 1, o); }, x);
            compare1("clamp int bounds", [](ct_tensor a, ct_tensor* o) { return ct_clamp(a, -1e30, 1, 3, 1, o); }, x);
            compare1("clamp min only", [](ct_tensor a, ct_tensor* o) { return ct_clamp(a, 1, 1, 0, 0, o); }, x);
        }
}

TEST(CudaGpu, ClampInPlaceOnTheDevice) {
    REQUIRE_CUDA();
    for (ct_dtype dt : {CT_FLOAT32, CT_INT32, CT_UINT8}) {
        H cpu = sample({4, 6}, dt, 5), dev = on(cpu, ct_cuda(0)), view_cpu = transposed(cpu), view_dev = transposed(dev);
        CT_ASSERT_OK(ct_clamp_(view_cpu.get(), 1, 1, 3, 1));
        CT_ASSERT_OK(ct_clamp_(view_dev.get(), 1, 1, 3, 1));
        EXPECT_EQ(values(dev), values(cpu));  // written through the view into the base
    }
}

TEST(CudaGpu, WherePowAtan2RemainderMatchCpu) {
    REQUIRE_CUDA();
    using Fn2 = std::function<ct_status(ct_tensor, ct_tensor, ct_tensor*)>;
    auto compare2 = [](const char* name, const Fn2& f, const H& a, const H& b) {
        compare1(name, [&](ct_tensor x, ct_tensor* o) {
            H bb = is_cuda(H(ct_tensor_retain(x))) ? on(b, ct_cuda(0)) : b;
            return f(x, bb.get(), o);
        }, a);
    };
    for (ct_dtype dt : kDtypes) {
        SCOPED_TRACE(ct_dtype_name(dt));
        H a = transposed(sample({5, 4}, dt, 1)), b = sample({1, 5}, dt, 2), nz;
        if (dt != CT_BOOL) compare2("pow", ct_pow, a, b);
        if (dt == CT_FLOAT32 || dt == CT_FLOAT64) compare2("atan2", ct_atan2, a, b);
        if (dt != CT_BOOL) ok(ct_clamp(b.get(), 1, 1, 0, 0, nz.out()));  // nonzero divisors
        if (dt != CT_BOOL && dt != CT_UINT8) compare2("remainder", ct_remainder, a, dt == CT_FLOAT32 ? b : nz);
        H cond = transposed(sample({5, 4}, CT_BOOL, 9)), other = sample({4, 1}, dt, 10);
        compare1("where", [&](ct_tensor c, ct_tensor* o) {
            bool dev = is_cuda(H(ct_tensor_retain(c)));
            return ct_where(c, (dev ? on(a, ct_cuda(0)) : a).get(), (dev ? on(other, ct_cuda(0)) : other).get(), o);
        }, cond);
    }
    // an integer division by zero is found on the device too
    H a = on(sample({3}, CT_INT32, 1), ct_cuda(0)), z, out;
    CT_ASSERT_OK(ct_zeros_like(a.get(), z.out()));
    CT_EXPECT_ERR(ct_remainder(a.get(), z.get(), out.out()), CT_ERR_INVALID_ARGUMENT, "remainder: integer division by zero");
}

TEST(CudaGpu, ReductionsMatchCpuOnEveryDtypeAndDim) {
    REQUIRE_CUDA();
    const int64_t d0[] = {0}, d1[] = {1}, dm[] = {-1}, d02[] = {0, 2};
    const std::pair<const int64_t*, int32_t> dim_sets[] = {{nullptr, 0}, {d0, 1}, {d1, 1}, {dm, 1}, {d02, 2}};
    const Shape shapes[] = {{3, 5, 7}, {2, 0, 3}, {4, 1, 33}};
    for (ct_dtype dt : kDtypes)
        for (const Shape& s : shapes)
            for (auto ds : dim_sets)
                for (int keep = 0; keep < 2; ++keep) {
                    SCOPED_TRACE(std::string(ct_dtype_name(dt)) + " dims " + std::to_string(ds.second) + " keep " +
                                 std::to_string(keep));
                    H x = sample(s, dt, 4);
                    H xt;  // a permuted (strided) view
                    ok(ct_permute(x.get(), std::vector<int64_t>{2, 0, 1}.data(), 3, xt.out()));
                    for (const H& in : {x, xt}) {
                        auto red = [&](const char* name, auto fn) {
                            compare1(name, [&](ct_tensor t, ct_tensor* o) { return fn(t, ds.first, ds.second, keep, o); },
                                     in, 1e-5);
                        };
                        red("sum", ct_sum);
                        red("prod", [](ct_tensor t, const int64_t* dims, int32_t n, int32_t k, ct_tensor* o) {
                            ct_dtype d = 0;
                            ok(ct_tensor_dtype(t, &d));
                            if (d == CT_BOOL) return ct_prod(t, dims, n, k, o);
                            H half;  // keep products small
                            ok(ct_clamp(t, -1.5, 1, 1.5, 1, half.out()));
                            return ct_prod(half.get(), dims, n, k, o);
                        });
                        red("all", ct_all);
                        red("any", ct_any);
                        red("mean", ct_mean);
                        red("logsumexp", ct_logsumexp);
                        red("var", [](ct_tensor t, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) {
                            return ct_var(t, d, n, 1.0, k, o);
                        });
                        red("std", [](ct_tensor t, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) {
                            return ct_std(t, d, n, 0.0, k, o);
                        });
                        for (double p : {0.0, 1.0, 2.0, 3.0, (double)INFINITY, -(double)INFINITY}) {
                            red("norm", [p](ct_tensor t, const int64_t* d, int32_t n, int32_t k, ct_tensor* o) {
                                return ct_norm(t, p, d, n, k, o);
                            });
                        }
                    }
                }
}

TEST(CudaGpu, MaxMinArgAndCumsumMatchCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kDtypes) {
        SCOPED_TRACE(ct_dtype_name(dt));
        H x = transposed(sample({7, 6}, dt, 8));  // many ties in every slice
        compare1("max", ct_max, x);
        compare1("min", ct_min, x);
        compare1("argmax_all", ct_argmax_all, x);
        compare1("argmin_all", ct_argmin_all, x);
        for (int64_t dim : {0, 1, -1})
            for (int keep = 0; keep < 2; ++keep) {
                compare1("argmax", [&](ct_tensor t, ct_tensor* o) { return ct_argmax(t, dim, keep, o); }, x);
                compare1("argmin", [&](ct_tensor t, ct_tensor* o) { return ct_argmin(t, dim, keep, o); }, x);
                compare1("max_dim values", [&](ct_tensor t, ct_tensor* o) {
                    H idx;
                    return ct_max_dim(t, dim, keep, o, idx.out());
                }, x);
                compare1("min_dim indices", [&](ct_tensor t, ct_tensor* o) {
                    H vals;
                    return ct_min_dim(t, dim, keep, vals.out(), o);
                }, x);
                compare1("cumsum", [&](ct_tensor t, ct_tensor* o) { return ct_cumsum(t, dim, o); }, x);
            }
        compare1("max of empty", ct_max, sample({0, 2}, dt, 1));  // the same error on both devices
    }
    H nan = make({1, NAN, 3, NAN, -2, 5}, {2, 3}, CT_FLOAT32);  // NaN wins, first NaN's index
    compare1("max NaN", ct_max, nan);
    compare1("argmin NaN", [](ct_tensor t, ct_tensor* o) { return ct_argmin(t, 1, 0, o); }, nan);
    H big = sample({3000}, CT_FLOAT64, 2);  // one long slice
    compare1("sum long", [](ct_tensor t, ct_tensor* o) { return ct_sum(t, nullptr, 0, 0, o); }, big, 1e-9);
    compare1("cumsum long", [](ct_tensor t, ct_tensor* o) { return ct_cumsum(t, 0, o); }, big, 1e-9);
}

TEST(CudaGpu, ReductionGradientsOnTheDevice) {
    REQUIRE_CUDA();
    DeviceScope cuda(ct_cuda(0));
    H x = randt({3, 4}, 1);
    const int64_t d1 = 1;
    EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
        H s, m, l, out, t;
        ok(ct_sum(in[0].get(), &d1, 1, 1, s.out()));
        ok(ct_logsumexp(in[0].get(), &d1, 1, 1, l.out()));
        ok(ct_mul(s.get(), l.get(), m.out()));
        ok(ct_std(in[0].get(), nullptr, 0, 1.0, 0, t.out()));
        ok(ct_add(m.get(), t.get(), 1.0, out.out()));
        return out;
    }, {x}));
    EXPECT_TRUE(gradcheck([&](const std::vector<H>& in) {
        H v, i;
        ok(ct_max_dim(in[0].get(), 0, 0, v.out(), i.out()));
        return v;
    }, {x}));
}
