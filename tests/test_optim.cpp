// test_optim.cpp - SGD / Adam / AdamW through the C API: 3-step trajectories against the torch.optim formulas
// written out as plain loops, hand-computed steps, grad skipping, zero_grad, learning rates, version bumps,
// hyper-parameter validation, and a tiny model that learns a separable toy problem.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

// Owns one optimizer handle.
struct Opt {
    ct_optimizer o = nullptr;
    ~Opt() { ct_optimizer_release(o); }
};

struct SgdCfg { double lr, momentum, dampening, wd; int nesterov; };
struct AdamCfg { double lr, b1, b2, eps, wd; bool decoupled; };

// torch.optim.SGD on one parameter vector, step by step.
std::vector<double> sgd_ref(std::vector<double> p, const std::vector<std::vector<double>>& grads, const SgdCfg& c) {
    std::vector<double> buf(p.size());
    for (size_t s = 0; s < grads.size(); ++s)
        for (size_t i = 0; i < p.size(); ++i) {
            double d = grads[s][i] + c.wd * p[i];
            if (c.momentum != 0) {
                buf[i] = s == 0 ? d : c.momentum * buf[i] + (1 - c.dampening) * d;
                d = c.nesterov ? d + c.momentum * buf[i] : buf[i];
            }
            p[i] -= c.lr * d;
        }
    return p;
}

// torch.optim.Adam / AdamW on one parameter vector.
std::vector<double> adam_ref(std::vector<double> p, const std::vector<std::vector<double>>& grads, const AdamCfg& c) {
    std::vector<double> m(p.size()), v(p.size());
    for (size_t s = 0; s < grads.size(); ++s) {
        double t = (double)(s + 1);
        double bc1 = 1 - std::pow(c.b1, t), bc2 = 1 - std::pow(c.b2, t);
        for (size_t i = 0; i < p.size(); ++i) {
            double g = grads[s][i];
            if (c.decoupled) p[i] *= 1 - c.lr * c.wd;
            else g += c.wd * p[i];
            m[i] = c.b1 * m[i] + (1 - c.b1) * g;
            v[i] = c.b2 * v[i] + (1 - c.b2) * g * g;
            p[i] -= (c.lr / bc1) * m[i] / (std::sqrt(v[i]) / std::sqrt(bc2) + c.eps);
        }
    }
    return p;
}

// Runs `steps` optimizer steps with the given per-step gradients on parameter p.
void run_steps(ct_optimizer o, const H& p, const std::vector<std::vector<double>>& grads, const Shape& s, ct_dtype dt) {
    for (const auto& g : grads) {
        H gt = make(g, s, dt);
        ok(ct_tensor_set_grad(p.get(), gt.get()));
        ok(ct_optimizer_step(o));
    }
}

std::vector<std::vector<double>> three_grads(size_t n) {
    return {rand_values(n, 71, -2, 2), rand_values(n, 72, -2, 2), rand_values(n, 73, -2, 2)};
}

}  // namespace

TEST(Optim, SgdTrajectoriesMatchTorchFormulas) {
    for_each_device([&] {
        std::vector<SgdCfg> cfgs{
            {0.1, 0, 0, 0, 0}, {0.05, 0.9, 0.1, 0.01, 0}, {0.05, 0.9, 0, 0.1, 1}, {0.2, 0.5, 0.5, 0, 0}};
        std::vector<double> p0 = rand_values(6, 70);
        for (const SgdCfg& c : cfgs)
            for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
                H p = make(p0, {2, 3}, dt, true);
                Opt o;
                ct_tensor ph = p.get();
                CT_ASSERT_OK(ct_optim_sgd_new(&ph, 1, c.lr, c.momentum, c.dampening, c.wd, c.nesterov, &o.o));
                run_steps(o.o, p, three_grads(6), {2, 3}, dt);
                EXPECT_TRUE(allclose(p, sgd_ref(p0, three_grads(6), c), dt == CT_FLOAT64 ? 1e-12 : 1e-5))
                    << "momentum " << c.momentum << " nesterov " << c.nesterov;
            }
    });
}

TEST(Optim, SgdMomentumByHand) {
    for_each_device([&] {
        // p = 1, g = 1 each step, lr 0.1, momentum 0.9: buffers 1, 1.9, 2.71 -> p = 0.9, 0.71, 0.439
        H p = make({1.0}, {1}, CT_FLOAT64, true);
        Opt o;
        ct_tensor ph = p.get();
        CT_ASSERT_OK(ct_optim_sgd_new(&ph, 1, 0.1, 0.9, 0, 0, 0, &o.o));
        std::vector<double> expect{0.9, 0.71, 0.439};
        for (double e : expect) {
            run_steps(o.o, p, {{1.0}}, {1}, CT_FLOAT64);
            EXPECT_TRUE(allclose(p, {e}, 1e-12));
        }
    });
}

TEST(Optim, AdamAndAdamWTrajectoriesMatchTorchFormulas) {
    for_each_device([&] {
        std::vector<AdamCfg> cfgs{{0.01, 0.9, 0.999, 1e-8, 0, false}, {0.05, 0.8, 0.99, 1e-6, 0.1, false},
                                  {0.05, 0.8, 0.99, 1e-6, 0.1, true}, {0.1, 0.0, 0.5, 0.1, 0.01, true}};
        std::vector<double> p0 = rand_values(5, 80);
        for (const AdamCfg& c : cfgs)
            for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
                H p = make(p0, {5}, dt, true);
                Opt o;
                ct_tensor ph = p.get();
                auto make_opt = c.decoupled ? ct_optim_adamw_new : ct_optim_adam_new;
                CT_ASSERT_OK(make_opt(&ph, 1, c.lr, c.b1, c.b2, c.eps, c.wd, &o.o));
                run_steps(o.o, p, three_grads(5), {5}, dt);
                EXPECT_TRUE(allclose(p, adam_ref(p0, three_grads(5), c), dt == CT_FLOAT64 ? 1e-12 : 1e-5))
                    << "wd " << c.wd << " decoupled " << c.decoupled;
            }
    });
}

TEST(Optim, AdamFirstStepByHand) {
    for_each_device([&] {
        // bias correction makes the first step lr * g / (|g| + eps): 1 - 0.1 * 3 / (3 + 1e-8)
        H p = make({1.0}, {1}, CT_FLOAT64, true);
        Opt o;
        ct_tensor ph = p.get();
        CT_ASSERT_OK(ct_optim_adam_new(&ph, 1, 0.1, 0.9, 0.999, 1e-8, 0, &o.o));
        run_steps(o.o, p, {{3.0}}, {1}, CT_FLOAT64);
        EXPECT_TRUE(allclose(p, {1 - 0.1 * 3 / (3 + 1e-8)}, 1e-14));
        // AdamW first shrinks p by 1 - lr * wd = 0.95, then takes the same step
        H q = make({2.0}, {1}, CT_FLOAT64, true);
        Opt w;
        ct_tensor qh = q.get();
        CT_ASSERT_OK(ct_optim_adamw_new(&qh, 1, 0.1, 0.9, 0.999, 0, 0.5, &w.o));
        run_steps(w.o, q, {{-2.0}}, {1}, CT_FLOAT64);
        EXPECT_TRUE(allclose(q, {2.0 * 0.95 + 0.1}, 1e-14));
    });
}

TEST(Optim, SkipsParamsWithoutGradAndBumpsVersions) {
    for_each_device([&] {
        H a = make({1, 2}, {2}, CT_FLOAT64, true), b = make({3, 4}, {2}, CT_FLOAT64, true);
        ct_tensor ps[2] = {a.get(), b.get()};
        Opt o;
        CT_ASSERT_OK(ct_optim_sgd_new(ps, 2, 0.5, 0, 0, 0, 0, &o.o));
        int64_t va0 = 0, vb0 = 0, va1 = 0, vb1 = 0;
        CT_ASSERT_OK(ct_tensor_version(a.get(), &va0));
        CT_ASSERT_OK(ct_tensor_version(b.get(), &vb0));
        run_steps(o.o, a, {{2, 4}}, {2}, CT_FLOAT64);  // only a has a grad
        EXPECT_TRUE(allclose(a, {0, 0}));
        EXPECT_TRUE(allclose(b, {3, 4}));
        CT_ASSERT_OK(ct_tensor_version(a.get(), &va1));
        CT_ASSERT_OK(ct_tensor_version(b.get(), &vb1));
        EXPECT_GT(va1, va0);
        EXPECT_EQ(vb1, vb0);
        int32_t leaf = 0;
        CT_ASSERT_OK(ct_tensor_is_leaf(a.get(), &leaf));
        EXPECT_EQ(leaf, 1);  // the step recorded no graph
    });
}

TEST(Optim, ZeroGradAndLearningRate) {
    for_each_device([&] {
        H a = make({1, 2}, {2}, CT_FLOAT64, true);
        ct_tensor ph = a.get();
        Opt o;
        CT_ASSERT_OK(ct_optim_sgd_new(&ph, 1, 0.5, 0, 0, 0, 0, &o.o));
        H g0 = make({1, 1}, {2}), g;
        CT_ASSERT_OK(ct_tensor_set_grad(a.get(), g0.get()));
        CT_ASSERT_OK(ct_optimizer_zero_grad(o.o, 0));
        CT_ASSERT_OK(ct_tensor_grad(a.get(), g.out()));
        EXPECT_TRUE(allclose(g, {0, 0}));
        CT_ASSERT_OK(ct_optimizer_zero_grad(o.o, 1));
        CT_ASSERT_OK(ct_tensor_grad(a.get(), g.out()));
        EXPECT_FALSE(g);
        double lr = 0;
        CT_ASSERT_OK(ct_optimizer_get_lr(o.o, &lr));
        EXPECT_EQ(lr, 0.5);
        CT_ASSERT_OK(ct_optimizer_set_lr(o.o, 0.25));
        CT_ASSERT_OK(ct_optimizer_get_lr(o.o, &lr));
        EXPECT_EQ(lr, 0.25);
        run_steps(o.o, a, {{4, 4}}, {2}, CT_FLOAT64);
        EXPECT_TRUE(allclose(a, {0, 1}));
        CT_EXPECT_ERR(ct_optimizer_set_lr(o.o, -1), CT_ERR_INVALID_ARGUMENT, "invalid learning rate -1");
        CT_EXPECT_ERR(ct_optimizer_get_lr(o.o, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
    });
}

TEST(Optim, NonContiguousParameterIsUpdatedInPlace) {
    for_each_device([&] {
        H base = make({1, 2, 3, 4, 5, 6}, {2, 3}), p, g = make({1, 1, 1, 1, 1, 1}, {3, 2});
        CT_ASSERT_OK(ct_transpose(base.get(), 0, 1, p.out()));
        CT_ASSERT_OK(ct_tensor_set_requires_grad(p.get(), 1));
        ct_tensor ph = p.get();
        Opt o;
        CT_ASSERT_OK(ct_optim_sgd_new(&ph, 1, 1.0, 0, 0, 0, 0, &o.o));
        CT_ASSERT_OK(ct_tensor_set_grad(p.get(), g.get()));
        CT_ASSERT_OK(ct_optimizer_step(o.o));
        EXPECT_TRUE(allclose(base, {0, 1, 2, 3, 4, 5}));  // written through the view into the shared storage
    });
}

TEST(Optim, HandlesAndErrors) {
    for_each_device([&] {
        H a = make({1, 2}, {2}, CT_FLOAT64, true);
        ct_tensor ph = a.get();
        ct_optimizer o = nullptr;
        int64_t live = ct_live_handles();
        CT_ASSERT_OK(ct_optim_adam_new(&ph, 1, 0.1, 0.9, 0.999, 1e-8, 0, &o));
        EXPECT_EQ(ct_live_handles(), live + 1);
        EXPECT_EQ(ct_optimizer_retain(o), o);
        ct_optimizer_release(o);
        CT_EXPECT_OK(ct_optimizer_step(o));  // still alive: one reference left
        ct_optimizer_release(o);
        EXPECT_EQ(ct_live_handles(), live);
        CT_EXPECT_ERR(ct_optimizer_step(o), CT_ERR_INVALID_HANDLE, "not a live optimizer handle");
        CT_EXPECT_ERR(ct_optimizer_step(nullptr), CT_ERR_INVALID_HANDLE, "NULL optimizer");
        ct_optimizer_release(nullptr);

        ct_optimizer out = nullptr;
        CT_EXPECT_ERR(ct_optim_sgd_new(&ph, 1, -0.1, 0, 0, 0, 0, &out), CT_ERR_INVALID_ARGUMENT, "invalid learning rate");
        CT_EXPECT_ERR(ct_optim_sgd_new(&ph, 1, 0.1, -0.5, 0, 0, 0, &out), CT_ERR_INVALID_ARGUMENT, "invalid momentum");
        CT_EXPECT_ERR(ct_optim_sgd_new(&ph, 1, 0.1, 0, 0, 0, 1, &out), CT_ERR_INVALID_ARGUMENT, "nesterov");
        CT_EXPECT_ERR(ct_optim_sgd_new(&ph, 1, 0.1, 0.9, 0.1, 0, 1, &out), CT_ERR_INVALID_ARGUMENT, "zero dampening");
        CT_EXPECT_ERR(ct_optim_sgd_new(&ph, 1, 0.1, 0, 0, -1, 0, &out), CT_ERR_INVALID_ARGUMENT, "weight_decay");
        CT_EXPECT_ERR(ct_optim_adam_new(&ph, 1, 0.1, 1.0, 0.999, 1e-8, 0, &out), CT_ERR_INVALID_ARGUMENT,
                      "invalid beta1 1");
        CT_EXPECT_ERR(ct_optim_adamw_new(&ph, 1, 0.1, 0.9, -0.1, 1e-8, 0, &out), CT_ERR_INVALID_ARGUMENT,
                      "adamw: invalid beta2");
        CT_EXPECT_ERR(ct_optim_adam_new(&ph, 1, 0.1, 0.9, 0.999, -1, 0, &out), CT_ERR_INVALID_ARGUMENT, "invalid epsilon");
        CT_EXPECT_ERR(ct_optim_adam_new(&ph, 1, NAN, 0.9, 0.999, 1e-8, 0, &out), CT_ERR_INVALID_ARGUMENT, "learning rate");
        CT_EXPECT_ERR(ct_optim_sgd_new(nullptr, 2, 0.1, 0, 0, 0, 0, &out), CT_ERR_INVALID_ARGUMENT, "params is NULL");
        CT_EXPECT_ERR(ct_optim_sgd_new(&ph, 1, 0.1, 0, 0, 0, 0, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
        ct_tensor twice[2] = {a.get(), a.get()};
        CT_EXPECT_ERR(ct_optim_sgd_new(twice, 2, 0.1, 0, 0, 0, 0, &out), CT_ERR_INVALID_ARGUMENT, "same tensor");
        H i = make({1, 2}, {2}, CT_INT64);
        ct_tensor ih = i.get();
        CT_EXPECT_ERR(ct_optim_sgd_new(&ih, 1, 0.1, 0, 0, 0, 0, &out), CT_ERR_DTYPE, "only floating tensors");
        H y;
        CT_ASSERT_OK(ct_mul(a.get(), a.get(), y.out()));
        ct_tensor yh = y.get();
        CT_EXPECT_ERR(ct_optim_sgd_new(&yh, 1, 0.1, 0, 0, 0, 0, &out), CT_ERR_INVALID_ARGUMENT, "not a leaf tensor");
        EXPECT_EQ(out, nullptr);  // out-params untouched on failure, and no handle was made
        EXPECT_EQ(ct_live_handles(), live + 2);  // just i and y
    });
}

TEST(Optim, TinyModelLearnsSeparableProblem) {
    for_each_device([&] {
        // three classes of 2-D points split by angle; linear(2, 16) - relu - linear(16, 3), cross entropy, Adam
        const int n = 96;
        std::vector<double> pts, cls;
        for (int i = 0; i < n; ++i) {
            double angle = 2 * M_PI * (i % 3) / 3 + 0.6 * (rand_values(1, 1000 + i)[0]);
            double radius = 1 + 0.5 * rand_values(1, 2000 + i)[0];
            pts.push_back(radius * std::cos(angle));
            pts.push_back(radius * std::sin(angle));
            cls.push_back(i % 3);
        }
        H x = make(pts, {n, 2}, CT_FLOAT32), t = make(cls, {n}, CT_INT64);
        H w1 = make(rand_values(32, 1, -0.7, 0.7), {16, 2}, CT_FLOAT32, true);
        H b1 = make(std::vector<double>(16, 0.0), {16}, CT_FLOAT32, true);
        H w2 = make(rand_values(48, 2, -0.25, 0.25), {3, 16}, CT_FLOAT32, true);
        H b2 = make(std::vector<double>(3, 0.0), {3}, CT_FLOAT32, true);
        ct_tensor params[4] = {w1.get(), b1.get(), w2.get(), b2.get()};
        Opt o;
        CT_ASSERT_OK(ct_optim_adam_new(params, 4, 0.05, 0.9, 0.999, 1e-8, 0, &o.o));
        double first = 0, last = 0;
        for (int step = 0; step < 150; ++step) {
            H h, r, logits, loss;
            CT_ASSERT_OK(ct_optimizer_zero_grad(o.o, 1));
            CT_ASSERT_OK(ct_linear(x.get(), w1.get(), b1.get(), h.out()));
            CT_ASSERT_OK(ct_relu(h.get(), r.out()));
            CT_ASSERT_OK(ct_linear(r.get(), w2.get(), b2.get(), logits.out()));
            CT_ASSERT_OK(ct_cross_entropy(logits.get(), t.get(), CT_REDUCTION_MEAN, -100, loss.out()));
            CT_ASSERT_OK(ct_backward(loss.get(), nullptr, 0, 0));
            CT_ASSERT_OK(ct_optimizer_step(o.o));
            (step == 0 ? first : last) = scalar(loss);
        }
        EXPECT_GT(first, 0.9);  // about log(3) at the start
        EXPECT_LT(last, 0.05);
    });
}

TEST(Optim, HyperParametersChangeMidRun) {
    for_each_device([&] {
        // SGD, lr 0.1, constant grad 1: buf 1, 1.9 with momentum 0.9, then 0.5 * 1.9 + 1 = 1.95 with momentum 0.5
        H a = make({0}, {1}, CT_FLOAT64, true);
        ct_tensor ph = a.get();
        Opt sgd;
        CT_ASSERT_OK(ct_optim_sgd_new(&ph, 1, 0.1, 0.9, 0, 0, 0, &sgd.o));
        run_steps(sgd.o, a, {{1}, {1}}, {1}, CT_FLOAT64);
        EXPECT_TRUE(allclose(a, {-0.29}));
        double v = 0;
        CT_ASSERT_OK(ct_optimizer_get_hparam(sgd.o, "momentum", &v));
        EXPECT_EQ(v, 0.9);
        CT_ASSERT_OK(ct_optimizer_set_hparam(sgd.o, "momentum", 0.5));
        run_steps(sgd.o, a, {{1}}, {1}, CT_FLOAT64);
        EXPECT_TRUE(allclose(a, {-0.485}));
        CT_ASSERT_OK(ct_optimizer_set_hparam(sgd.o, "lr", 0.2));
        CT_ASSERT_OK(ct_optimizer_get_lr(sgd.o, &v));
        EXPECT_EQ(v, 0.2);
        CT_ASSERT_OK(ct_optimizer_set_hparam(sgd.o, "nesterov", 1));
        CT_ASSERT_OK(ct_optimizer_get_hparam(sgd.o, "nesterov", &v));
        EXPECT_EQ(v, 1.0);
        CT_EXPECT_ERR(ct_optimizer_set_hparam(sgd.o, "dampening", 0.5), CT_ERR_INVALID_ARGUMENT,
                      "sgd: nesterov momentum requires a momentum > 0 and zero dampening");
        CT_ASSERT_OK(ct_optimizer_get_hparam(sgd.o, "dampening", &v));
        EXPECT_EQ(v, 0.0);  // a refused change leaves the old value
        CT_EXPECT_ERR(ct_optimizer_set_hparam(sgd.o, "nesterov", 0.5), CT_ERR_INVALID_ARGUMENT, "nesterov must be 0 or 1");
        CT_EXPECT_ERR(ct_optimizer_set_hparam(sgd.o, "beta1", 0.5), CT_ERR_INVALID_ARGUMENT,
                      "sgd: unknown hyper-parameter 'beta1' (known: lr, momentum, dampening, weight_decay, nesterov)");
        // Adam whose betas, eps and weight decay are changed before its first step follows the same trajectory
        // as an Adam built with those values
        std::vector<std::vector<double>> grads = three_grads(3);
        H p1 = make({1, -2, 3}, {3}, CT_FLOAT64, true), p2 = make({1, -2, 3}, {3}, CT_FLOAT64, true);
        ct_tensor h1 = p1.get(), h2 = p2.get();
        Opt changed, built;
        CT_ASSERT_OK(ct_optim_adam_new(&h1, 1, 0.1, 0.9, 0.999, 1e-8, 0.0, &changed.o));
        CT_ASSERT_OK(ct_optim_adam_new(&h2, 1, 0.1, 0.5, 0.9, 1e-3, 0.01, &built.o));
        for (const char* name : {"beta1", "beta2", "eps", "weight_decay"}) {
            double want = 0;
            CT_ASSERT_OK(ct_optimizer_get_hparam(built.o, name, &want));
            CT_ASSERT_OK(ct_optimizer_set_hparam(changed.o, name, want));
        }
        run_steps(changed.o, p1, grads, {3}, CT_FLOAT64);
        run_steps(built.o, p2, grads, {3}, CT_FLOAT64);
        EXPECT_EQ(values(p1), values(p2));
        EXPECT_FALSE(values(p1) == std::vector<double>({1, -2, 3}));
        CT_EXPECT_ERR(ct_optimizer_set_hparam(changed.o, "beta2", 1.0), CT_ERR_INVALID_ARGUMENT,
                      "adam: invalid beta2 1 (must be in [0, 1))");
        CT_EXPECT_ERR(ct_optimizer_set_hparam(changed.o, "momentum", 0.9), CT_ERR_INVALID_ARGUMENT,
                      "adam: unknown hyper-parameter 'momentum' (known: lr, beta1, beta2, eps, weight_decay)");
        CT_EXPECT_ERR(ct_optimizer_set_hparam(changed.o, nullptr, 0.9), CT_ERR_INVALID_ARGUMENT, "optimizer_set_hparam");
        CT_EXPECT_ERR(ct_optimizer_get_hparam(changed.o, "eps", nullptr), CT_ERR_INVALID_ARGUMENT, "optimizer_get_hparam");
        CT_EXPECT_ERR(ct_optimizer_get_hparam(nullptr, "eps", &v), CT_ERR_INVALID_HANDLE, "optimizer_get_hparam");
    });
}
