// cuda_compare.h - helpers for CudaGpu tests: run a function of tensors on the CPU and on a CUDA device (inputs
// moved there, optionally viewed after the move) and compare values, shapes, dtypes and gradients.
#pragma once
#include <string>
#include "ct_test.h"

namespace ctt {

inline std::string cuda_unavailable_reason() {
    char reason[1024] = "";
    return ct_cuda_is_available(reason, sizeof reason) ? std::string() : std::string(reason);
}
#define REQUIRE_CUDA()                                                          \
    do {                                                                        \
        std::string why_ = ::ctt::cuda_unavailable_reason();                    \
        if (!why_.empty()) GTEST_SKIP() << "no CUDA device: " << why_;          \
    } while (0)

// The highest CUDA device index: tests that place a tensor off device 0 use it (0 on a one-GPU machine; the emulated
// backend has two devices).
inline int32_t last_cuda_device() { return ct_cuda_device_count() > 1 ? ct_cuda_device_count() - 1 : 0; }

inline H on(const H& t, ct_device d) {
    H out;
    ok(ct_to_device(t.get(), d, out.out()));
    return out;
}

inline ct_device device_of(const H& t) {
    ct_device d{};
    ok(ct_tensor_device(t.get(), &d));
    return d;
}

inline bool requires_grad_of(const H& t) {
    int32_t r = 0;
    ok(ct_tensor_requires_grad(t.get(), &r));
    return r != 0;
}

// Test values for dtype (non-negative for uint8, 0/1 for bool, halves with ties for the others).
inline H sample(const Shape& s, ct_dtype dt, uint64_t seed, double lo = -5.0, double hi = 5.0) {
    size_t n = 1;
    for (auto d : s) n *= (size_t)d;
    std::vector<double> v = rand_values(n, seed, dt == CT_UINT8 ? 0.0 : lo, hi);
    for (auto& x : v) x = dt == CT_BOOL ? (x > 0) : std::floor(x * 2) / 2;
    return make(v, s, dt);
}

using Fn = std::function<H(const std::vector<H>&)>;
using ViewFn = std::function<H(const H&)>;
inline H same(const H& t) { return t; }
inline H transposed(const H& t) {
    H o;
    ok(ct_transpose(t.get(), 0, 1, o.out()));
    return o;
}
inline H every_other_column(const H& t) {  // of the last dim
    H o;
    ok(ct_slice(t.get(), -1, 0, INT64_MAX, 2, o.out()));
    return o;
}

// Copy of t on device d; a fresh leaf that requires grad when want_grad (t's values, not its history).
inline H leaf_on(const H& t, ct_device d, bool want_grad) {
    H moved = on(t, d), detached, leaf;
    ok(ct_detach(moved.get(), detached.out()));
    ok(ct_clone(detached.get(), leaf.out()));  // own storage: the CPU and CUDA leaves never alias t
    if (want_grad) ok(ct_tensor_set_requires_grad(leaf.get(), 1));
    return leaf;
}

// Runs f on the CPU and on cuda:0 with inputs (views[i] applied after moving; same when absent) and
// compares the outputs. Inputs with grad[i] set require grad: then a seeded backward runs on both devices and
// the gradients are compared too. Returns the CUDA output.
inline H compare_on_cuda(const char* what, const Fn& f, const std::vector<H>& inputs, std::vector<bool> grad = {},
                         std::vector<ViewFn> views = {}, double tol = 1e-6) {
    SCOPED_TRACE(what);
    grad.resize(inputs.size(), false);
    views.resize(inputs.size(), ViewFn(same));
    std::vector<H> cpu, dev, cpu_leaf, dev_leaf;
    for (size_t i = 0; i < inputs.size(); ++i) {
        cpu_leaf.push_back(leaf_on(inputs[i], ct_cpu(), grad[i]));
        dev_leaf.push_back(leaf_on(inputs[i], ct_cuda(0), grad[i]));
        cpu.push_back(views[i](cpu_leaf.back()));
        dev.push_back(views[i](dev_leaf.back()));
    }
    H want = f(cpu), got = f(dev);
    EXPECT_EQ(device_of(got).type, CT_DEVICE_CUDA);
    EXPECT_EQ(shape(got), shape(want));
    EXPECT_EQ(dtype(got), dtype(want));
    EXPECT_TRUE(allclose(got, values(want), tol, tol));
    if (!requires_grad_of(want)) return got;
    std::vector<double> seed = rand_values(values(want).size(), 99, -1.0, 1.0);
    H seed_cpu = make(seed, shape(want), dtype(want)), seed_dev = on(seed_cpu, ct_cuda(0));
    ok(ct_backward(want.get(), seed_cpu.get(), 0, 0));
    ct_status st = ct_backward(got.get(), seed_dev.get(), 0, 0);
    EXPECT_EQ(st, CT_OK) << ct_last_error();
    if (st != CT_OK) return got;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!grad[i]) continue;
        SCOPED_TRACE("gradient of input " + std::to_string(i));
        H gw, gg;
        ok(ct_tensor_grad(cpu_leaf[i].get(), gw.out()));
        ok(ct_tensor_grad(dev_leaf[i].get(), gg.out()));
        EXPECT_EQ(device_of(gg).type, CT_DEVICE_CUDA);
        EXPECT_TRUE(allclose(gg, values(gw), tol, tol));
    }
    return got;
}

}  // namespace ctt
