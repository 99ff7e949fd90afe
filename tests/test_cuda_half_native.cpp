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

// ---- optimizer steps (Note [Native half step] in cuda/optim.cuh) ----
namespace {

struct OptimCase {
    const char* name;
    std::function<ct_status(const ct_tensor*, ct_optimizer*)> make;
    std::vector<const char*> state;
};

std::vector<OptimCase> optim_cases() {
    return {
        {"sgd", [](const ct_tensor* p, ct_optimizer* o) { return ct_optim_sgd_new(p, 2, 0.1, 0.0, 0.0, 0.0, 0, o); },
         {}},
        {"sgd momentum dampening decay",
         [](const ct_tensor* p, ct_optimizer* o) { return ct_optim_sgd_new(p, 2, 0.05, 0.9, 0.1, 0.01, 0, o); },
         {"momentum_buffer"}},
        {"sgd nesterov",
         [](const ct_tensor* p, ct_optimizer* o) { return ct_optim_sgd_new(p, 2, 0.05, 0.8, 0.0, 0.0, 1, o); },
         {"momentum_buffer"}},
        {"adam", [](const ct_tensor* p, ct_optimizer* o) { return ct_optim_adam_new(p, 2, 1e-2, 0.9, 0.999, 1e-8, 0.0, o); },
         {"exp_avg", "exp_avg_sq"}},
        {"adam l2", [](const ct_tensor* p, ct_optimizer* o) { return ct_optim_adam_new(p, 2, 1e-2, 0.8, 0.99, 1e-6, 0.1, o); },
         {"exp_avg", "exp_avg_sq"}},
        {"adamw", [](const ct_tensor* p, ct_optimizer* o) { return ct_optim_adamw_new(p, 2, 1e-2, 0.9, 0.999, 1e-8, 0.05, o); },
         {"exp_avg", "exp_avg_sq"}},
    };
}

// Same values within one rounding to dt at the larger magnitude (a real GPU may contract a * b + c into an FMA,
// which the CPU does not; the emulated backend runs the CPU's exact float math: bit for bit there).
::testing::AssertionResult within_one_rounding(const H& got, const H& want, ct_dtype dt) {
    if (dtype(got) != dtype(want) || shape(got) != shape(want)) return ::testing::AssertionFailure() << "dtype/shape";
    const double ulp = dt == CT_FLOAT16 ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
    std::vector<double> g = values(got), w = values(want);
    for (size_t i = 0; i < g.size(); ++i)
        if (std::fabs(g[i] - w[i]) > ulp * std::max(std::fabs(g[i]), std::fabs(w[i])) + 1e-30)
            return ::testing::AssertionFailure() << "element " << i << ": " << g[i] << " vs " << w[i];
    return ::testing::AssertionSuccess();
}

// Runs three steps of c on two half parameters (one 0-d) on device d, with the gradients grads[step][param];
// returns the parameters and then each state tensor of each parameter, on the CPU.
std::vector<H> optim_run(const OptimCase& c, ct_device d, const std::vector<H>& init,
                         const std::vector<std::vector<H>>& grads) {
    std::vector<H> p;
    for (const H& t : init) p.push_back(leaf_on(t, d, true));
    ct_tensor ps[2] = {p[0].get(), p[1].get()};
    ct_optimizer opt = nullptr;
    ok(c.make(ps, &opt));
    for (const auto& gs : grads) {
        for (size_t i = 0; i < p.size(); ++i) ok(ct_tensor_set_grad(p[i].get(), on(gs[i], d).get()));
        ok(ct_optimizer_step(opt));
    }
    std::vector<H> out;
    for (const H& t : p) out.push_back(on(t, ct_cpu()));
    for (int32_t i = 0; i < 2; ++i)
        for (const char* s : c.state) {
            H st;
            ok(ct_optimizer_get_state(opt, i, s, st.out()));
            out.push_back(on(st, ct_cpu()));
        }
    ct_optimizer_release(opt);
    return out;
}

}  // namespace

// A half step on CUDA equals the CPU's half step (float32 copies of parameter, gradient and state, the float32
// loop, rounded back): bit for bit on the emulated backend, within one rounding on a GPU (FMA contraction).
TEST(CudaGpu, HalfOptimizerStepsMatchCpu) {
    REQUIRE_CUDA();
    int64_t counts[2];
    const bool emulated = emulated_counters(counts);
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        std::vector<H> init = {sample({7, 19}, dt, 21, -2.0, 2.0), make({0.75}, {}, dt)};
        std::vector<std::vector<H>> grads;
        for (uint64_t s = 0; s < 3; ++s)
            grads.push_back({sample({7, 19}, dt, 30 + s, -1.0, 1.0), make({0.5 - 0.25 * (double)s}, {}, dt)});
        for (const OptimCase& c : optim_cases()) {
            SCOPED_TRACE(c.name);
            std::vector<H> got = optim_run(c, ct_cuda(0), init, grads), want = optim_run(c, ct_cpu(), init, grads);
            ASSERT_EQ(got.size(), want.size());
            for (size_t i = 0; i < got.size(); ++i) {
                SCOPED_TRACE(i);
                EXPECT_EQ(dtype(got[i]), dt);  // the state is stored in the parameter's dtype, as torch does
                EXPECT_TRUE(emulated ? same_bits(got[i], want[i]) : within_one_rounding(got[i], want[i], dt));
            }
        }
    }
}

TEST(CudaEmulatedCounters, HalfOptimizerStepsTakeNoFloat32Copy) {
    REQUIRE_CUDA();
    int64_t before[2], after[2];
    if (!emulated_counters(before)) GTEST_SKIP() << "the counters exist on the emulated backend only";
    for (ct_dtype dt : kHalves)
        for (const OptimCase& c : optim_cases()) {
            SCOPED_TRACE(c.name);
            H p0 = leaf_on(sample({33, 17}, dt, 1), ct_cuda(0), true), p1 = leaf_on(make({1.0}, {}, dt), ct_cuda(0), true);
            ct_tensor ps[2] = {p0.get(), p1.get()};
            ct_optimizer opt = nullptr;
            ok(c.make(ps, &opt));
            ok(ct_tensor_set_grad(p0.get(), on(sample({33, 17}, dt, 2), ct_cuda(0)).get()));
            ok(ct_tensor_set_grad(p1.get(), on(make({0.5}, {}, dt), ct_cuda(0)).get()));
            emulated_counters(before);
            ok(ct_optimizer_step(opt));  // creates the state
            ok(ct_optimizer_step(opt));  // reads it
            emulated_counters(after);
            EXPECT_EQ(after[1] - before[1], 0) << "a half -> float32 copy was made (the fallback)";
            ct_optimizer_release(opt);
        }
}

// ---- layer_norm / group_norm / batch_norm (Note [Native half norms] in ops/nn_norms.cpp) ----
namespace {

using NormFn = std::function<H(const H& x, const H& w, const H& b)>;

H to_f32(const H& t) {
    if (!t.get()) return t;
    H r;
    ok(ct_to_dtype(t.get(), CT_FLOAT32, r.out()));
    return r;
}

// The forward natively and through the fallback spelled out (float32 copies of x, w, b; the result rounded),
// bit for bit; then one seeded backward through both, the gradients of x, w and b within grad_tol.
void norm_native_equals_fallback(const char* what, const NormFn& f, const H& x, const H& w, const H& b,
                                 double grad_tol) {
    SCOPED_TRACE(what);
    auto leaf = [](const H& t) { return t.get() ? leaf_on(t, ct_cuda(0), true) : H(); };
    H xn = leaf(x), wn = leaf(w), bn = leaf(b), xf = leaf(x), wf = leaf(w), bf = leaf(b);
    H got = f(xn, wn, bn), want;
    ok(ct_to_dtype(f(to_f32(xf), to_f32(wf), to_f32(bf)).get(), dtype(x), want.out()));
    EXPECT_TRUE(same_bits(got, want));
    H seed = on(make(rand_values(values(got).size(), 7, -1.0, 1.0), shape(got), dtype(got)), ct_cuda(0));
    ok(ct_backward(got.get(), seed.get(), 0, 0));
    ok(ct_backward(want.get(), seed.get(), 0, 0));
    const H* pairs[3][2] = {{&xn, &xf}, {&wn, &wf}, {&bn, &bf}};
    for (int i = 0; i < 3; ++i) {
        if (!pairs[i][0]->get()) continue;
        SCOPED_TRACE("gradient of input " + std::to_string(i));
        H gn, gf;
        ok(ct_tensor_grad(pairs[i][0]->get(), gn.out()));
        ok(ct_tensor_grad(pairs[i][1]->get(), gf.out()));
        EXPECT_EQ(dtype(gn), dtype(x));
        EXPECT_TRUE(allclose(gn, values(gf), grad_tol, grad_tol));
    }
}

const int64_t kLast1[] = {33}, kLast2[] = {4, 33};

std::vector<std::pair<const char*, NormFn>> norm_ops() {
    return {
        {"layer_norm", [](const H& x, const H& w, const H& b) {
             H o;
             ok(ct_layer_norm(x.get(), kLast1, 1, w.get(), b.get(), 1e-5, o.out()));
             return o;
         }},
        {"group_norm", [](const H& x, const H& w, const H& b) {
             H o;
             ok(ct_group_norm(x.get(), 2, w.get(), b.get(), 1e-5, o.out()));
             return o;
         }},
        {"batch_norm train", [](const H& x, const H& w, const H& b) {
             H o;
             ok(ct_batch_norm(x.get(), nullptr, nullptr, w.get(), b.get(), 1, 0.1, 1e-5, o.out()));
             return o;
         }},
    };
}

}  // namespace

TEST(CudaGpu, HalfNormsNativeEqualFallback) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        const double tol = dt == CT_FLOAT16 ? 1e-2 : 6e-2;
        // layer_norm over [.., 33]; group_norm / batch_norm see [3, 4, 11, 3] as [N, C, *]
        H x = sample({3, 4, 11, 3}, dt, 41, -2.0, 3.0), x_ln = sample({3, 4, 33}, dt, 42, -2.0, 3.0);
        H w4 = sample({4}, dt, 43, 0.5, 1.5), b4 = sample({4}, dt, 44, -0.5, 0.5);
        H w33 = sample({33}, dt, 45, 0.5, 1.5), b33 = sample({33}, dt, 46, -0.5, 0.5);
        for (auto& [name, f] : norm_ops()) {
            const bool ln = std::strcmp(name, "layer_norm") == 0;
            const H& in = ln ? x_ln : x;
            norm_native_equals_fallback(name, f, in, ln ? w33 : w4, ln ? b33 : b4, tol);
            norm_native_equals_fallback(name, f, in, H(), H(), tol);     // no affine
            norm_native_equals_fallback(name, f, in, ln ? w33 : w4, H(), tol);  // weight only
        }
        norm_native_equals_fallback(
            "layer_norm 2 dims, transposed input",
            [](const H& x, const H& w, const H& b) {
                H o, xt;
                ok(ct_transpose(x.get(), 0, 1, xt.out()));
                ok(ct_layer_norm(xt.get(), kLast2, 2, w.get(), b.get(), 1e-5, o.out()));
                return o;
            },
            sample({4, 3, 33}, dt, 47, -1.0, 1.0), sample({4, 33}, dt, 48, 0.5, 1.5), H(), tol);
        norm_native_equals_fallback("layer_norm of constant rows",
                                    norm_ops()[0].second, make(std::vector<double>(2 * 33, 1.5), {2, 33}, dt), w33,
                                    b33, tol);
    }
}

// batch_norm with half running statistics: training updates them as the fallback does (bit for bit), evaluation
// normalises by them (forward bit for bit, gradients within tolerance).
TEST(CudaGpu, HalfBatchNormRunningStatsNativeEqualFallback) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        H x = on(sample({5, 3, 7}, dt, 51, -1.0, 2.0), ct_cuda(0));
        H rm0 = sample({3}, dt, 52, -0.2, 0.2), rv0 = sample({3}, dt, 53, 0.5, 1.5);
        H rm_n = leaf_on(rm0, ct_cuda(0), false), rv_n = leaf_on(rv0, ct_cuda(0), false);
        H rm_f = leaf_on(rm0, ct_cuda(0), false), rv_f = leaf_on(rv0, ct_cuda(0), false);
        H yn, yf, yf32;
        ok(ct_batch_norm(x.get(), rm_n.get(), rv_n.get(), nullptr, nullptr, 1, 0.3, 1e-5, yn.out()));
        ok(ct_batch_norm(to_f32(x).get(), rm_f.get(), rv_f.get(), nullptr, nullptr, 1, 0.3, 1e-5, yf32.out()));
        ok(ct_to_dtype(yf32.get(), dt, yf.out()));
        EXPECT_TRUE(same_bits(yn, yf));
        EXPECT_TRUE(same_bits(rm_n, rm_f));
        EXPECT_TRUE(same_bits(rv_n, rv_f));
        EXPECT_FALSE(same_bits(rm_n, on(rm0, ct_cuda(0))));  // they were updated
        norm_native_equals_fallback(
            "batch_norm eval",
            [&](const H& x, const H& w, const H& b) {
                H o;
                ok(ct_batch_norm(x.get(), rm_n.get(), rv_n.get(), w.get(), b.get(), 0, 0.1, 1e-5, o.out()));
                return o;
            },
            sample({5, 3, 7}, dt, 54, -1.0, 2.0), sample({3}, dt, 55, 0.5, 1.5), sample({3}, dt, 56), 
            dt == CT_FLOAT16 ? 1e-2 : 6e-2);
    }
}

TEST(CudaGpu, HalfNormsNativeMatchCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        const double tol = dt == CT_FLOAT16 ? 2e-2 : 1.5e-1;
        H x = sample({3, 4, 11, 3}, dt, 61, -2.0, 3.0), x_ln = sample({3, 4, 33}, dt, 62, -2.0, 3.0);
        H w4 = sample({4}, dt, 63, 0.5, 1.5), b4 = sample({4}, dt, 64, -0.5, 0.5);
        H w33 = sample({33}, dt, 65, 0.5, 1.5), b33 = sample({33}, dt, 66, -0.5, 0.5);
        for (auto& [name, f] : norm_ops()) {
            const bool ln = std::strcmp(name, "layer_norm") == 0;
            compare_on_cuda(name, [&](const std::vector<H>& in) { return f(in[0], in[1], in[2]); },
                            {ln ? x_ln : x, ln ? w33 : w4, ln ? b33 : b4}, {true, true, true}, {}, tol);
        }
    }
}

TEST(CudaEmulatedCounters, HalfNormsTakeNoFloat32Copy) {
    REQUIRE_CUDA();
    int64_t before[2], after[2];
    if (!emulated_counters(before)) GTEST_SKIP() << "the counters exist on the emulated backend only";
    for (ct_dtype dt : kHalves)
        for (auto& [name, f] : norm_ops()) {
            SCOPED_TRACE(name);
            const bool ln = std::strcmp(name, "layer_norm") == 0;
            H x = leaf_on(ln ? sample({8, 33}, dt, 1) : sample({4, 4, 9}, dt, 1), ct_cuda(0), true);
            H w = leaf_on(sample({ln ? 33 : 4}, dt, 2), ct_cuda(0), true);
            H b = leaf_on(sample({ln ? 33 : 4}, dt, 3), ct_cuda(0), true);
            emulated_counters(before);
            H y = f(x, w, b);  // records the backward node: its float32 copies are made only when it runs
            emulated_counters(after);
            EXPECT_EQ(after[1] - before[1], 0) << "a half -> float32 copy was made (the fallback)";
        }
}
