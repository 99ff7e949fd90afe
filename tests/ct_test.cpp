// ct_test.cpp - implementation of the C-API test helpers (gradient checks by central differences).
#include "ct_test.h"
#include <cstdio>
#include <cstring>
#include <sstream>

namespace ctt {

namespace {
thread_local ct_device t_device = ct_cpu();
}  // namespace

ct_device test_device() { return t_device; }

bool is_cuda(const H& t) {
    ct_device d{};
    ok(ct_tensor_device(t.get(), &d));
    return d.type == CT_DEVICE_CUDA;
}

DeviceScope::DeviceScope(ct_device d) : prev_(t_device) { t_device = d; }
DeviceScope::~DeviceScope() { t_device = prev_; }

void for_each_device(const std::function<void()>& body) {
    {
        SCOPED_TRACE("device pass: cpu");
        DeviceScope cpu(ct_cpu());
        body();
    }
    char why[512] = "";
    if (!ct_cuda_is_available(why, sizeof why)) {
        const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::printf("[ SKIPPED  ] cuda:0 pass of %s.%s: no CUDA device: %s\n", info ? info->test_suite_name() : "?",
                    info ? info->name() : "?", why);
        ::testing::Test::RecordProperty("cuda_pass", std::string("skipped: no CUDA device: ") + why);
        return;
    }
    SCOPED_TRACE("device pass: cuda:0");
    DeviceScope cuda(ct_cuda(0));
    body();
}

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
    if (t_device.type != CT_DEVICE_CPU) {
        H moved;
        ok(ct_to_device(out.get(), t_device, moved.out()));
        out = moved;
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

namespace {

// Fresh contiguous leaves requiring grad (so that perturbing CPU ones through data_ptr is safe).
std::vector<H> fresh_leaves(const std::vector<H>& inputs, ct_device device) {
    std::vector<H> xs;
    for (auto& in : inputs) {
        H moved, c, d;
        ok(ct_to_device(in.get(), device, moved.out()));
        ok(ct_clone(moved.get(), c.out()));
        ok(ct_detach(c.get(), d.out()));
        ok(ct_tensor_set_requires_grad(d.get(), 1));
        xs.push_back(d);
    }
    return xs;
}

int64_t numel_of(const H& t) {
    int64_t n = 0;
    ok(ct_tensor_numel(t.get(), &n));
    return n;
}

// Gradients of sum(f(xs) * w) by backward, with zeros for inputs that get none.
std::vector<std::vector<double>> analytic_grads(const std::function<H(const std::vector<H>&)>& f,
                                                const std::vector<H>& xs, H* w_out) {
    H y = f(xs);
    H w = make(rand_values((size_t)numel_of(y), 99, 0.5, 1.5), shape(y), CT_FLOAT64);
    H yw, loss;
    ok(ct_mul(y.get(), w.get(), yw.out()));
    ok(ct_sum(yw.get(), nullptr, 0, 0, loss.out()));
    ok(ct_backward(loss.get(), nullptr, 0, 0));
    std::vector<std::vector<double>> analytic;
    for (auto& x : xs) {
        H g;
        ok(ct_tensor_grad(x.get(), g.out()));
        analytic.push_back(g ? values(g) : std::vector<double>((size_t)numel_of(x), 0.0));
    }
    *w_out = w;
    return analytic;
}

// Central differences of sum(f(xs) * w); xs are CPU float64 leaves.
std::vector<std::vector<double>> numeric_grads(const std::function<H(const std::vector<H>&)>& f,
                                               const std::vector<H>& xs, const H& w, double eps) {
    std::vector<std::vector<double>> numeric;
    for (auto& x : xs) {
        int64_t n = numel_of(x);
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
    return numeric;
}

// The same on a device whose memory the host cannot write: every perturbed input is a new tensor made there.
std::vector<std::vector<double>> device_numeric_grads(const std::function<H(const std::vector<H>&)>& f,
                                                      const std::vector<H>& xs, const H& w, double eps) {
    std::vector<std::vector<double>> numeric;
    std::vector<H> cur = xs;
    for (size_t i = 0; i < xs.size(); ++i) {
        std::vector<double> v = values(xs[i]);
        Shape s = shape(xs[i]);
        std::vector<double> num(v.size());
        for (size_t k = 0; k < v.size(); ++k) {
            double orig = v[k];
            v[k] = orig + eps;
            cur[i] = make(v, s, CT_FLOAT64, true);
            double fp = weighted_value(f, cur, w);
            v[k] = orig - eps;
            cur[i] = make(v, s, CT_FLOAT64, true);
            double fm = weighted_value(f, cur, w);
            v[k] = orig;
            num[k] = (fp - fm) / (2 * eps);
        }
        cur[i] = xs[i];
        numeric.push_back(num);
    }
    return numeric;
}

}  // namespace

::testing::AssertionResult gradcheck(const std::function<H(const std::vector<H>&)>& f, const std::vector<H>& inputs,
                                     double eps, double atol, double rtol) {
    try {
        bool cuda = false;
        for (auto& in : inputs) cuda = cuda || is_cuda(in);
        ct_device device = cuda ? ct_cuda(0) : ct_cpu();
        DeviceScope scope(device);  // constants made inside f live with the inputs
        std::vector<H> xs = fresh_leaves(inputs, device);
        H w;
        std::vector<std::vector<double>> analytic = analytic_grads(f, xs, &w);
        return compare(analytic, cuda ? device_numeric_grads(f, xs, w, eps) : numeric_grads(f, xs, w, eps), atol, rtol);
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
