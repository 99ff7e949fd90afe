// test_cuda_half_native.cpp - the native float16/bfloat16 CUDA kernels (Note [Native half on CUDA] in
// src/ops/half_compute.h): each op family made native, on half CUDA tensors, against (1) the op-level fallback on
// the same device (float32 copy, float32 op, rounded back: built here explicitly with ct_to_dtype), bit for bit in
// the forward and in the gradient, and (2) the same op on CPU half tensors (compare_on_cuda, half tolerance). On the
// emulated backend the CudaEmulatedCounters tests also prove that the fallback's widening copies are gone (its
// counters, found with dlsym; they skip on a real GPU, so they are not in the CudaGpu suite, where a skip is a failure). Runs in the GPU section (ctest ctensor_tests_emulated_cuda); skipped without a device.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include "cuda_compare.h"
#include "emulated_hooks.h"

using namespace ctt;

namespace {

const ct_dtype kHalves[] = {CT_FLOAT16, CT_BFLOAT16};
using Op = std::function<H(const H&)>;

std::string name_of(ct_dtype dt) { return ct_dtype_name(dt); }

// The fallback of Note [Half compute] spelled out: f on a float32 copy of x, floating results rounded to x's dtype.
H fallback(const Op& f, const H& x) {
    H xf, r;
    ok(ct_to_dtype(x.get(), CT_FLOAT32, xf.out()));
    H y = f(xf);
    if (dtype(y) != CT_FLOAT32) return y;  // indices, masks
    ok(ct_to_dtype(y.get(), dtype(x), r.out()));
    return r;
}

// Same values bit for bit (NaN matches NaN), same shape and dtype.
::testing::AssertionResult same_bits(const H& got, const H& want) {
    if (dtype(got) != dtype(want)) return ::testing::AssertionFailure() << "dtypes differ";
    if (shape(got) != shape(want)) return ::testing::AssertionFailure() << "shapes differ";
    std::vector<double> g = values(got), w = values(want);
    for (size_t i = 0; i < g.size(); ++i)
        if (!(g[i] == w[i] || (std::isnan(g[i]) && std::isnan(w[i])) ) || std::signbit(g[i]) != std::signbit(w[i]))
            return ::testing::AssertionFailure() << "element " << i << ": " << g[i] << " vs " << w[i];
    return ::testing::AssertionSuccess();
}

// Runs op natively and through the fallback on a half CUDA leaf (view applied), and compares forward and, when
// the result is floating, the gradient for one seed, bit for bit (grad_tol 0) or within grad_tol.
void native_equals_fallback(const char* what, const Op& op, const H& x_cpu, ViewFn view = same,
                            double grad_tol = 0.0) {
    SCOPED_TRACE(what);
    H leaf_n = leaf_on(x_cpu, ct_cuda(0), true), leaf_f = leaf_on(x_cpu, ct_cuda(0), true);
    H got = op(view(leaf_n)), want = fallback(op, view(leaf_f));
    EXPECT_EQ(device_of(got).type, CT_DEVICE_CUDA);
    EXPECT_TRUE(same_bits(got, want));
    if (!requires_grad_of(got)) return;
    H seed = on(make(rand_values(values(got).size(), 7, -1.0, 1.0), shape(got), dtype(got)), ct_cuda(0));
    ok(ct_backward(got.get(), seed.get(), 0, 0));
    ok(ct_backward(want.get(), seed.get(), 0, 0));
    H gn, gf;
    ok(ct_tensor_grad(leaf_n.get(), gn.out()));
    ok(ct_tensor_grad(leaf_f.get(), gf.out()));
    SCOPED_TRACE("gradient");
    if (grad_tol == 0.0) EXPECT_TRUE(same_bits(gn, gf));
    else EXPECT_TRUE(allclose(gn, values(gf), grad_tol, grad_tol));
}

const int64_t kDim1[] = {1}, kDim0[] = {0}, kDims01[] = {0, 1};

// The reductions made native, each as x -> result.
std::vector<std::pair<const char*, Op>> reduction_ops() {
    auto with = [](auto f) { return Op([f](const H& x) { H o; ok(f(x.get(), o.out())); return o; }); };
    return {
        {"sum dim 1", with([](ct_tensor x, ct_tensor* o) { return ct_sum(x, kDim1, 1, 0, o); })},
        {"sum all", with([](ct_tensor x, ct_tensor* o) { return ct_sum(x, nullptr, 0, 0, o); })},
        {"sum dim 0 keepdim", with([](ct_tensor x, ct_tensor* o) { return ct_sum(x, kDim0, 1, 1, o); })},
        {"mean dim 1", with([](ct_tensor x, ct_tensor* o) { return ct_mean(x, kDim1, 1, 0, o); })},
        {"mean all", with([](ct_tensor x, ct_tensor* o) { return ct_mean(x, nullptr, 0, 0, o); })},
        {"prod dim 1", with([](ct_tensor x, ct_tensor* o) { return ct_prod(x, kDim1, 1, 0, o); })},
        {"var dim 1", with([](ct_tensor x, ct_tensor* o) { return ct_var(x, kDim1, 1, 1.0, 0, o); })},
        {"std dims 0 1", with([](ct_tensor x, ct_tensor* o) { return ct_std(x, kDims01, 2, 0.0, 0, o); })},
        {"logsumexp dim 0", with([](ct_tensor x, ct_tensor* o) { return ct_logsumexp(x, kDim0, 1, 0, o); })},
        {"norm 2", with([](ct_tensor x, ct_tensor* o) { return ct_norm(x, 2.0, kDim1, 1, 0, o); })},
        {"norm 1", with([](ct_tensor x, ct_tensor* o) { return ct_norm(x, 1.0, nullptr, 0, 0, o); })},
        {"norm 3", with([](ct_tensor x, ct_tensor* o) { return ct_norm(x, 3.0, kDim0, 1, 1, o); })},
        {"norm inf", with([](ct_tensor x, ct_tensor* o) { return ct_norm(x, INFINITY, kDim1, 1, 0, o); })},
        {"max", with([](ct_tensor x, ct_tensor* o) { return ct_max(x, o); })},
        {"min", with([](ct_tensor x, ct_tensor* o) { return ct_min(x, o); })},
        {"max_dim values", with([](ct_tensor x, ct_tensor* o) {
             ct_tensor idx = nullptr;
             ct_status st = ct_max_dim(x, 1, 0, o, &idx);
             ct_tensor_release(idx);
             return st;
         })},
        {"min_dim indices", with([](ct_tensor x, ct_tensor* o) {
             ct_tensor v = nullptr;
             ct_status st = ct_min_dim(x, 0, 1, &v, o);
             ct_tensor_release(v);
             return st;
         })},
        {"argmax", with([](ct_tensor x, ct_tensor* o) { return ct_argmax(x, 1, 0, o); })},
        {"argmin all", with([](ct_tensor x, ct_tensor* o) { return ct_argmin_all(x, o); })},
        {"all", with([](ct_tensor x, ct_tensor* o) { return ct_all(x, kDim1, 1, 0, o); })},
        {"any", with([](ct_tensor x, ct_tensor* o) { return ct_any(x, nullptr, 0, 0, o); })},
    };
}

// The emulated backend's counters (allocations, half -> float32 copies), or false on another backend.
bool emulated_counters(int64_t counts[2]) {
    auto fn = emulated_hook<void (*)(int64_t*)>("ct_emulated_cuda_counters");
    if (!fn) return false;
    fn(counts);
    return true;
}

}  // namespace

TEST(CudaGpu, HalfReductionsNativeEqualFallback) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        // a NaN and ties in one row, zeros for prod's gradient path, odd sizes
        std::vector<double> v = rand_values(5 * 37, 3, -2.0, 2.0);
        v[40] = NAN, v[80] = v[81] = 1.75, v[120] = 0.0;
        H x = make(v, {5, 37}, dt), clean = sample({5, 37}, dt, 4, -2.0, 2.0), big = sample({3, 1500}, dt, 5, 0, 4);
        for (auto& [name, op] : reduction_ops()) {
            native_equals_fallback(name, op, x);
            native_equals_fallback(name, op, clean, transposed);
            native_equals_fallback(name, op, clean, every_other_column);
            native_equals_fallback(name, op, big);  // long rows: the float accumulator matters
        }
        for (auto& [name, op] : reduction_ops()) {  // 0-d input (dims 0/1 do not exist: only the all-forms)
            const std::string n = name;
            if (n == "sum all" || n == "mean all" || n == "norm 1" || n == "max" || n == "min" || n == "argmin all" ||
                n == "any")
                native_equals_fallback(name, op, make({-1.5}, {}, dt));
        }
    }
}

TEST(CudaGpu, HalfReductionsNativeMatchCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        const double tol = dt == CT_FLOAT16 ? 2e-2 : 1e-1;
        H a = sample({6, 33}, dt, 11, -2.0, 2.0), pos = sample({6, 33}, dt, 12, 0.5, 1.5);
        for (auto& [name, op] : reduction_ops()) {
            const bool grad = std::strstr(name, "arg") == nullptr && std::strstr(name, "indices") == nullptr &&
                              std::strcmp(name, "all") != 0 && std::strcmp(name, "any") != 0;
            const H& in = std::strstr(name, "prod") ? pos : a;  // products of [0.5, 1.5) stay in range
            compare_on_cuda(name, [&](const std::vector<H>& x) { return op(x[0]); }, {in}, {grad}, {transposed},
                            tol);
        }
    }
}

TEST(CudaEmulatedCounters, HalfReductionsTakeNoFloat32Copy) {
    REQUIRE_CUDA();
    int64_t before[2], after[2];
    if (!emulated_counters(before)) GTEST_SKIP() << "the counters exist on the emulated backend only";
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        H x = on(sample({64, 129}, dt, 1), ct_cuda(0));
        for (auto& [name, op] : reduction_ops()) {
            SCOPED_TRACE(name);
            emulated_counters(before);
            H r = op(x);
            emulated_counters(after);
            EXPECT_EQ(after[1] - before[1], 0) << "a half -> float32 copy was made (the fallback)";
        }
        // sum: one buffer, the half result (the fallback makes three: x's float32 copy, the float32 sum, the result)
        emulated_counters(before);
        H s;
        ok(ct_sum(x.get(), kDim1, 1, 0, s.out()));
        emulated_counters(after);
        EXPECT_EQ(after[0] - before[0], 1);
        // the fallback spelled out does copy: the counter sees it
        emulated_counters(before);
        H f = fallback(reduction_ops()[0].second, x);
        emulated_counters(after);
        EXPECT_EQ(after[1] - before[1], 1);
    }
}

// softmax / log_softmax: the forward is the fallback's bit for bit; the backward reads the saved half output (the
// fallback keeps it in float32), so its gradient agrees within a rounding of that output.
TEST(CudaGpu, HalfSoftmaxNativeEqualsFallback) {
    REQUIRE_CUDA();
    auto softmax_on = [](int64_t dim, bool log_) {
        return Op([dim, log_](const H& x) {
            H o;
            ok(log_ ? ct_log_softmax(x.get(), dim, o.out()) : ct_softmax(x.get(), dim, o.out()));
            return o;
        });
    };
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        const double tol = dt == CT_FLOAT16 ? 4e-3 : 3e-2;
        std::vector<double> v = rand_values(6 * 41, 5, -6.0, 6.0);
        v[7] = -INFINITY, v[50] = 60000.0;  // a masked logit; a large one (float16's range)
        H x = make(v, {6, 41}, dt), clean = sample({6, 41}, dt, 6, -3.0, 3.0);
        for (bool log_ : {false, true})
            for (int64_t dim : {1, 0, -1}) {
                std::string what = std::string(log_ ? "log_softmax" : "softmax") + " dim " + std::to_string(dim);
                native_equals_fallback(what.c_str(), softmax_on(dim, log_), clean, same, tol);
                native_equals_fallback(what.c_str(), softmax_on(dim, log_), clean, transposed, tol);
                H xd = on(x, ct_cuda(0));
                // the forward with -inf and a large value
                EXPECT_TRUE(same_bits(softmax_on(dim, log_)(xd), fallback(softmax_on(dim, log_), xd))) << what;
                compare_on_cuda(what.c_str(), [&](const std::vector<H>& in) { return softmax_on(dim, log_)(in[0]); },
                                {clean}, {true}, {every_other_column}, tol * 2);
            }
        native_equals_fallback("softmax 0-d", softmax_on(0, false), make({2.5}, {}, dt), same, tol);
        native_equals_fallback("log_softmax 1-d", softmax_on(0, true), sample({300}, dt, 7), same, tol);
    }
}

TEST(CudaEmulatedCounters, HalfSoftmaxTakesNoFloat32Copy) {
    REQUIRE_CUDA();
    int64_t before[2], after[2];
    if (!emulated_counters(before)) GTEST_SKIP() << "the counters exist on the emulated backend only";
    for (ct_dtype dt : kHalves) {
        H x = leaf_on(sample({16, 33}, dt, 1), ct_cuda(0), true), y, l, seed = on(sample({16, 33}, dt, 2), ct_cuda(0));
        emulated_counters(before);
        ok(ct_softmax(x.get(), 1, y.out()));
        ok(ct_backward(y.get(), seed.get(), 0, 0));
        ok(ct_log_softmax(x.get(), 0, l.out()));
        emulated_counters(after);
        EXPECT_EQ(after[1] - before[1], 0) << name_of(dt);
    }
}

// cumsum: the in-place half scan (each prefix rounded once) equals the fallback bit for bit, gradient included (the
// backward is the reversed scan of the half gradient), with no float32 copy.
TEST(CudaGpu, HalfCumsumNativeEqualsFallback) {
    REQUIRE_CUDA();
    auto cumsum_on = [](int64_t dim) {
        return Op([dim](const H& x) {
            H o;
            ok(ct_cumsum(x.get(), dim, o.out()));
            return o;
        });
    };
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        H x = sample({9, 301}, dt, 8, -2.0, 2.0);
        for (int64_t dim : {1, 0, -1}) {
            native_equals_fallback("cumsum", cumsum_on(dim), x);
            native_equals_fallback("cumsum transposed", cumsum_on(dim), x, transposed);
        }
        native_equals_fallback("cumsum 0-d", cumsum_on(0), make({3.25}, {}, dt));
        compare_on_cuda("cumsum vs cpu", [&](const std::vector<H>& in) { return cumsum_on(1)(in[0]); }, {x}, {true},
                        {every_other_column}, dt == CT_FLOAT16 ? 5e-2 : 2e-1);
        int64_t before[2], after[2];
        if (!emulated_counters(before)) continue;
        H y = cumsum_on(1)(on(x, ct_cuda(0)));
        emulated_counters(after);
        EXPECT_EQ(after[1] - before[1], 0);
    }
}
