// ct_test.h - test helpers over the C API only: an RAII handle (H), builders, value readers, and a
// central-difference gradient check in float64.
#pragma once
#include <gtest/gtest.h>
#include <cmath>
#include <functional>
#include <string>
#include <vector>
#include "ctensor.h"

namespace ctt {

using Shape = std::vector<int64_t>;

// Owns one reference to a tensor handle.
class H {
  public:
    H() = default;
    explicit H(ct_tensor h) : h_(h) {}
    H(const H& o) : h_(ct_tensor_retain(o.h_)) {}
    H(H&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
    H& operator=(H o) noexcept {
        std::swap(h_, o.h_);
        return *this;
    }
    ~H() { ct_tensor_release(h_); }
    ct_tensor get() const { return h_; }
    ct_tensor* out() {  // for out-parameters: releases the current value first
        ct_tensor_release(h_);
        h_ = nullptr;
        return &h_;
    }
    explicit operator bool() const { return h_ != nullptr; }
  private:
    ct_tensor h_ = nullptr;
};

// Fails the current test (with ct_last_error) unless status is CT_OK.
#define CT_ASSERT_OK(expr)                                                                  \
    do {                                                                                    \
        ct_status ct_st_ = (expr);                                                          \
        ASSERT_EQ(ct_st_, CT_OK) << #expr << " -> " << ct_status_name(ct_st_) << ": " << ct_last_error(); \
    } while (0)
#define CT_EXPECT_OK(expr)                                                                  \
    do {                                                                                    \
        ct_status ct_st_ = (expr);                                                          \
        EXPECT_EQ(ct_st_, CT_OK) << #expr << " -> " << ct_status_name(ct_st_) << ": " << ct_last_error(); \
    } while (0)
// Expects status st and a message containing substring sub.
#define CT_EXPECT_ERR(expr, st, sub)                                                        \
    do {                                                                                    \
        ct_status ct_st_ = (expr);                                                          \
        EXPECT_EQ(ct_st_, st) << #expr << " -> " << ct_status_name(ct_st_) << ": " << ct_last_error(); \
        EXPECT_NE(std::string(ct_last_error()).find(sub), std::string::npos)                \
            << "message '" << ct_last_error() << "' lacks '" << sub << "'";                 \
    } while (0)

// Throws std::runtime_error with ct_last_error when a call fails (for use inside helpers and lambdas).
inline void ok(ct_status st) {
    if (st != CT_OK) throw std::runtime_error(std::string(ct_status_name(st)) + ": " + ct_last_error());
}

// ---- per-device test bodies ----
// The device on which make/randt create tensors: the CPU, except inside for_each_device's CUDA pass.
ct_device test_device();
bool is_cuda(const H& t);
// Sets test_device() for its lifetime.
class DeviceScope {
  public:
    explicit DeviceScope(ct_device d);
    ~DeviceScope();
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;
  private:
    ct_device prev_;
};
// Runs body on the CPU, then again with test_device() = cuda:0 when a CUDA device is available (the emulated
// backend counts), failures traced with the device. Without one, prints that the CUDA pass was skipped and why
// (and records it as the test property "cuda_pass"). Bodies must create tensors with make/randt (or on
// test_device()), so the same value and gradient checks run on each device.
void for_each_device(const std::function<void()>& body);

// A tensor with the given values (row-major) converted to dtype, on test_device().
H make(const std::vector<double>& values, const Shape& shape, ct_dtype dtype = CT_FLOAT64, bool requires_grad = false);
// Values of t (any dtype/layout) as doubles in row-major order.
std::vector<double> values(const H& t);
// Shape of t.
Shape shape(const H& t);
ct_dtype dtype(const H& t);
// Deterministic pseudo-random values in [lo, hi) from seed.
std::vector<double> rand_values(size_t n, uint64_t seed, double lo = -1.0, double hi = 1.0);
// A float64 tensor of the given shape with values from rand_values, optionally requiring grad.
H randt(const Shape& shape, uint64_t seed, bool requires_grad = true, double lo = -1.0, double hi = 1.0);
// Scalar value of a one-element tensor.
double scalar(const H& t);

// Checks the analytic gradients of f at inputs (float64, requiring grad) against central differences.
// f must return a tensor (any shape). Returns a failure listing the worst mismatch. Inputs on CUDA: both the
// analytic gradients and the central differences are computed on the device (perturbed inputs made there).
::testing::AssertionResult gradcheck(const std::function<H(const std::vector<H>&)>& f, const std::vector<H>& inputs,
                                     double eps = 1e-6, double atol = 1e-5, double rtol = 1e-4);

// Checks second derivatives: gradcheck of the function inputs -> grad(f(inputs) . v, inputs, create_graph).
::testing::AssertionResult gradgradcheck(const std::function<H(const std::vector<H>&)>& f, const std::vector<H>& inputs,
                                         double eps = 1e-6, double atol = 1e-4, double rtol = 1e-3);

// Element-wise closeness of a tensor to expected values.
::testing::AssertionResult allclose(const H& t, const std::vector<double>& expected, double atol = 1e-6,
                                    double rtol = 1e-5);

}  // namespace ctt
