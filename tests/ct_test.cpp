// ct_test.cpp - implementation of the C-API test helpers (gradient checks by central differences).
#include "ct_test.h"
#include <cstring>
#include <sstream>

namespace ctt {

H make(const std::vector<double>& values, const Shape& shape, ct_dtype dtype, bool requires_grad) {
    H f64, out;
    ok(ct_tensor_from_data(values.data(), (int64_t)(values.size() * sizeof(double)), shape.data(), (int32_t)shape.size(),
                           CT_FLOAT64, ct_cpu(), f64.out()));
    if (dtype == CT_FLOAT64) {
        out = f64;
    } else {
        H conv;
        ok(ct_to_dtype(f64.get(), dtype, conv.out()));
        ok(ct_contiguous(conv.get(), out.out()));
    }
    if (requires_grad) {
        H fresh;
        ok(ct_clone(out.get(), fresh.out()));
        ok(ct_tensor_set_requires_grad(fresh.get(), 1));
        return fresh;
    }
    return out;
}

std::vector<double> values(const H& t) {
    H d;
    ok(ct_to_dtype(t.get(), CT_FLOAT64, d.out()));
    int64_t n = 0;
    ok(ct_tensor_numel(d.get(), &n));
    std::vector<double> v((size_t)n);
    ok(ct_tensor_copy_to_host(d.get(), v.data(), n * (int64_t)sizeof(double)));
    return v;
}

Shape shape(const H& t) {
    int32_t nd = 0;
    ok(ct_tensor_shape(t.get(), nullptr, 0, &nd));
    Shape s((size_t)nd);
    ok(ct_tensor_shape(t.get(), s.data(), nd, &nd));
    return s;
}

ct_dtype dtype(const H& t) {
    ct_dtype d = 0;
    ok(ct_tensor_dtype(t.get(), &d));
    return d;
}

std::vector<double> rand_values(size_t n, uint64_t seed, double lo, double hi) {
    std::vector<double> v(n);
    uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
    for (auto& x : v) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(s >> 11) / 9007199254740992.0;
        x = lo + (hi - lo) * u;
    }
    return v;
}

H randt(const Shape& shape, uint64_t seed, bool requires_grad, double lo, double hi) {
    size_t n = 1;
    for (auto s : shape) n *= (size_t)s;
    return make(rand_values(n, seed, lo, hi), shape, CT_FLOAT64, requires_grad);
}

double scalar(const H& t) {
    double v = 0;
    ok(ct_tensor_item(t.get(), &v));
    return v;
}

namespace {

// sum(f(inputs) * w) as a double, with grad mode off.
double weighted_value(const std::function<H(const std::vector<H>&)>& f, const std::vector<H>& inputs, const H& w) {
    struct NoGrad {
        int32_t prev = 0;
        NoGrad() { ct_set_grad_enabled(0, &prev); }
        ~NoGrad() { ct_set_grad_enabled(prev, nullptr); }
    } no_grad;
    H y = f(inputs), yw, s;
    ok(ct_mul(y.get(), w.get(), yw.out()));
    ok(ct_sum(yw.get(), nullptr, 0, 0, s.out()));
    return scalar(s);
}

::testing::AssertionResult compare(const std::vector<std::vector<double>>& analytic,
                                   const std::vector<std::vector<double>>& numeric, double atol, double rtol) {
    for (size_t i = 0; i < analytic.size(); ++i) {
        for (size_t k = 0; k < analytic[i].size(); ++k) {
            double a = analytic[i][k], n = numeric[i][k];
            if (!(std::fabs(a - n) <= atol + rtol * std::fabs(n)))
                return ::testing::AssertionFailure() << "input " << i << " element " << k << ": analytic " << a
                                                     << " vs numeric " << n;
        }
    }
    return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult gradcheck(const std::function<H(const std::vector<H>&)>& f, const std::vector<H>& inputs,
                                     double eps, double atol, double rtol) {
    try {
        // fresh contiguous leaves so that perturbing through data_ptr is safe
        std::vector<H> xs;
        for (auto& in : inputs) {
            H c;
            ok(ct_clone(in.get(), c.out()));
            H d;
            ok(ct_detach(c.get(), d.out()));
            ok(ct_tensor_set_requires_grad(d.get(), 1));
            xs.push_back(d);
        }
        H y = f(xs);
        H w = make(rand_values((size_t)[&] { int64_t n; ok(ct_tensor_numel(y.get(), &n)); return n; }(), 99, 0.5, 1.5),
                   shape(y), CT_FLOAT64);
        H yw, loss;
        ok(ct_mul(y.get(), w.get(), yw.out()));
        ok(ct_sum(yw.get(), nullptr, 0, 0, loss.out()));
        ok(ct_backward(loss.get(), nullptr, 0, 0));
        std::vector<std::vector<double>> analytic, numeric;
        for (auto& x : xs) {
            H g;
            ok(ct_tensor_grad(x.get(), g.out()));
            int64_t n = 0;
            ok(ct_tensor_numel(x.get(), &n));
            analytic.push_back(g ? values(g) : std::vector<double>((size_t)n, 0.0));
            void* p = nullptr;
            ok(ct_tensor_data_ptr(x.get(), &p));
            double* d = static_cast<double*>(p);
            std::vector<double> num((size_t)n);
            for (int64_t k = 0; k < n; ++k) {
                double orig = d[k];
                d[k] = orig + eps;
                double fp = weighted_value(f, xs, w);
                d[k] = orig - eps;
                double fm = weighted_value(f, xs, w);
                d[k] = orig;
                num[(size_t)k] = (fp - fm) / (2 * eps);
            }
            numeric.push_back(num);
        }
        return compare(analytic, numeric, atol, rtol);
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "gradcheck raised: " << e.what();
    }
}

::testing::AssertionResult gradgradcheck(const std::function<H(const std::vector<H>&)>& f, const std::vector<H>& inputs,
                                         double eps, double atol, double rtol) {
    // g(inputs) = sum_i sum(grad_i * v_i) where grad = autograd.grad(sum(f * w), inputs, create_graph)
    auto g = [&f](const std::vector<H>& xs) -> H {
        struct GradOn {
            int32_t prev = 0;
            GradOn() { ct_set_grad_enabled(1, &prev); }
            ~GradOn() { ct_set_grad_enabled(prev, nullptr); }
        } grad_on;
        H y = f(xs);
        int64_t n = 0;
        ok(ct_tensor_numel(y.get(), &n));
        H w = make(rand_values((size_t)n, 7, 0.5, 1.5), shape(y), CT_FLOAT64);
        H yw, loss;
        ok(ct_mul(y.get(), w.get(), yw.out()));
        ok(ct_sum(yw.get(), nullptr, 0, 0, loss.out()));
        std::vector<ct_tensor> ins, grads(xs.size(), nullptr);
        for (auto& x : xs) ins.push_back(x.get());
        ct_tensor lh = loss.get();
        ok(ct_autograd_grad(&lh, 1, nullptr, ins.data(), (int32_t)ins.size(), 1, 1, 1, grads.data()));
        H total = make({0.0}, {}, CT_FLOAT64);
        for (size_t i = 0; i < grads.size(); ++i) {
            H gi(grads[i]);
            if (!gi) continue;
            int64_t m = 0;
            ok(ct_tensor_numel(gi.get(), &m));
            H v = make(rand_values((size_t)m, 11 + i, 0.5, 1.5), shape(gi), CT_FLOAT64);
            H p, s, t;
            ok(ct_mul(gi.get(), v.get(), p.out()));
            ok(ct_sum(p.get(), nullptr, 0, 0, s.out()));
            ok(ct_add(total.get(), s.get(), 1.0, t.out()));
            total = t;
        }
        return total;
    };
    return gradcheck(g, inputs, eps, atol, rtol);
}

::testing::AssertionResult allclose(const H& t, const std::vector<double>& expected, double atol, double rtol) {
    std::vector<double> v;
    try {
        v = values(t);
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << e.what();
    }
    if (v.size() != expected.size())
        return ::testing::AssertionFailure() << "got " << v.size() << " values, expected " << expected.size();
    for (size_t i = 0; i < v.size(); ++i) {
        bool both_nan = std::isnan(v[i]) && std::isnan(expected[i]);
        bool same_inf = std::isinf(v[i]) && v[i] == expected[i];
        if (!both_nan && !same_inf && !(std::fabs(v[i] - expected[i]) <= atol + rtol * std::fabs(expected[i])))
            return ::testing::AssertionFailure() << "element " << i << ": got " << v[i] << ", expected " << expected[i];
    }
    return ::testing::AssertionSuccess();
}

}  // namespace ctt
