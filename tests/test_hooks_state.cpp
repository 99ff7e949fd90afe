// test_hooks_state.cpp - tensor hooks (leaf and non-leaf, replacement, order, removal, ctx lifetime, failing
// hooks) and optimizer state (read, restore, resumed training continues identically, errors).
#include "ct_test.h"

using namespace ctt;

namespace {

struct HookLog {
    std::vector<std::vector<double>> seen;
    double scale = 1.0;  // != 1: the hook returns grad * scale
    bool fail = false;
    int* destroyed = nullptr;
};

ct_status log_hook(ct_tensor grad, void* ctx, ct_tensor* replacement) {
    auto* log = static_cast<HookLog*>(ctx);
    H g(ct_tensor_retain(grad));
    log->seen.push_back(values(g));
    if (log->fail) return ct_set_error(CT_ERR_INVALID_ARGUMENT, "hook refused the gradient");
    if (log->scale != 1.0) {
        H s;
        ok(ct_wrapped_scalar(log->scale, 0, s.out()));
        return ct_mul(grad, s.get(), replacement);
    }
    return CT_OK;
}

void count_destroy(void* ctx) { (*static_cast<HookLog*>(ctx)->destroyed)++; }

H square_sum(const H& x) {
    H sq, s;
    ok(ct_mul(x.get(), x.get(), sq.out()));
    ok(ct_sum(sq.get(), nullptr, 0, 0, s.out()));
    return s;
}

H grad_of(const H& x) {
    H g;
    ok(ct_tensor_grad(x.get(), g.out()));
    return g;
}

}  // namespace

TEST(Hooks, LeafHookSeesAndReplacesGradient) {
    for_each_device([&] {
        int destroyed = 0;
        HookLog a, b;
        a.destroyed = b.destroyed = &destroyed;
        a.scale = 10.0;
        {
            H x = make({1, 2, 3}, {3}, CT_FLOAT64, true);
            int64_t ida = 0, idb = 0;
            CT_ASSERT_OK(ct_tensor_register_hook(x.get(), log_hook, &a, count_destroy, &ida));
            CT_ASSERT_OK(ct_tensor_register_hook(x.get(), log_hook, &b, count_destroy, &idb));
            EXPECT_NE(ida, idb);
            CT_ASSERT_OK(ct_backward(square_sum(x).get(), nullptr, 0, 0));
            ASSERT_EQ(a.seen.size(), 1u);
            EXPECT_EQ(a.seen[0], (std::vector<double>{2, 4, 6}));
            EXPECT_EQ(b.seen[0], (std::vector<double>{20, 40, 60}));  // hooks chain in registration order
            EXPECT_TRUE(allclose(grad_of(x), {20, 40, 60}));
            CT_ASSERT_OK(ct_tensor_remove_hook(x.get(), ida));
            EXPECT_EQ(destroyed, 1);  // removal frees ctx at once when no backward holds it
            CT_EXPECT_ERR(ct_tensor_remove_hook(x.get(), ida), CT_ERR_INVALID_ARGUMENT, "no hook with id");
            CT_ASSERT_OK(ct_tensor_set_grad(x.get(), nullptr));
            CT_ASSERT_OK(ct_backward(square_sum(x).get(), nullptr, 0, 0));
            EXPECT_TRUE(allclose(grad_of(x), {2, 4, 6}));
            EXPECT_EQ(a.seen.size(), 1u);
            EXPECT_EQ(b.seen.size(), 2u);
            EXPECT_EQ(destroyed, 1);
        }
        EXPECT_EQ(destroyed, 2);  // the remaining hook's ctx is freed with the tensor
    });
}

TEST(Hooks, NonLeafHookChangesUpstreamGradientAndRetainedGrad) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true), y, z;
        ok(ct_mul(x.get(), x.get(), y.out()));  // y = x^2
        HookLog log;
        log.scale = 3.0;
        int64_t id;
        CT_ASSERT_OK(ct_tensor_retain_grad(y.get()));
        CT_ASSERT_OK(ct_tensor_register_hook(y.get(), log_hook, &log, nullptr, &id));
        ok(ct_sum(y.get(), nullptr, 0, 0, z.out()));
        CT_ASSERT_OK(ct_backward(z.get(), nullptr, 0, 0));
        EXPECT_EQ(log.seen[0], (std::vector<double>{1, 1}));
        EXPECT_TRUE(allclose(grad_of(y), {3, 3}));           // retained grad is the hooked one
        EXPECT_TRUE(allclose(grad_of(x), {3 * 2, 3 * 4}));  // dy/dx = 2x, times the hook's 3
    });
}

TEST(Hooks, FailingHookFailsBackwardAndErrors) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true);
        HookLog log;
        log.fail = true;
        int64_t id;
        CT_ASSERT_OK(ct_tensor_register_hook(x.get(), log_hook, &log, nullptr, &id));
        CT_EXPECT_ERR(ct_backward(square_sum(x).get(), nullptr, 0, 0), CT_ERR_CALLBACK, "hook refused the gradient");
        H c = make({1, 2}, {2});
        int destroyed = 0;
        HookLog other;
        other.destroyed = &destroyed;
        CT_EXPECT_ERR(ct_tensor_register_hook(c.get(), log_hook, &other, count_destroy, &id), CT_ERR_AUTOGRAD,
                      "does not require grad");
        EXPECT_EQ(destroyed, 1);  // ctx freed on failure too
        CT_EXPECT_ERR(ct_tensor_register_hook(x.get(), nullptr, nullptr, nullptr, &id), CT_ERR_INVALID_ARGUMENT, "hook is NULL");
    });
}

ct_status wrong_shape_hook(ct_tensor, void*, ct_tensor* replacement) {
    int64_t s = 5;
    return ct_zeros(&s, 1, CT_FLOAT64, test_device(), replacement);
}

TEST(Hooks, ReplacementOfWrongShapeIsRefused) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true);
        int64_t id;
        CT_ASSERT_OK(ct_tensor_register_hook(x.get(), wrong_shape_hook, nullptr, nullptr, &id));
        CT_EXPECT_ERR(ct_backward(square_sum(x).get(), nullptr, 0, 0), CT_ERR_CALLBACK, "shape [5]");
    });
}

namespace {
struct Opt {
    ct_optimizer o = nullptr;
    ~Opt() { ct_optimizer_release(o); }
};

// One step of loss = sum((w * data)^2) for each parameter.
void train_step(ct_optimizer opt, const std::vector<H>& params, double data) {
    ok(ct_optimizer_zero_grad(opt, 1));
    for (auto& p : params) {
        H d, m;
        ok(ct_wrapped_scalar(data, 0, d.out()));
        ok(ct_mul(p.get(), d.get(), m.out()));
        ok(ct_backward(square_sum(m).get(), nullptr, 0, 0));
    }
    ok(ct_optimizer_step(opt));
}

// Copies every state tensor and step count of `from` into `to`.
void copy_state(ct_optimizer from, ct_optimizer to, const std::vector<std::string>& names, bool steps) {
    int32_t n = 0;
    ok(ct_optimizer_num_params(from, &n));
    for (int32_t i = 0; i < n; ++i) {
        for (auto& name : names) {
            H s;
            ok(ct_optimizer_get_state(from, i, name.c_str(), s.out()));
            ok(ct_optimizer_set_state(to, i, name.c_str(), s.get()));
        }
        if (steps) {
            int64_t st;
            ok(ct_optimizer_get_step(from, i, &st));
            ok(ct_optimizer_set_step(to, i, st));
        }
    }
}

void check_resume(const std::function<ct_status(const ct_tensor*, ct_optimizer*)>& make_opt,
                  const std::vector<std::string>& names, bool steps) {
    std::vector<H> a = {make({0.5, -1.0, 2.0}, {3}, CT_FLOAT64, true), make({1.5, 0.25}, {2}, CT_FLOAT64, true)};
    std::vector<ct_tensor> ah = {a[0].get(), a[1].get()};
    Opt oa;
    ok(make_opt(ah.data(), &oa.o));
    for (double d : {1.0, 0.5, 0.8}) train_step(oa.o, a, d);
    // a second model from a's current weights, with a fresh optimizer restored from a's state
    std::vector<H> b;
    for (auto& p : a) {
        H c, dt;
        ok(ct_clone(p.get(), c.out()));
        ok(ct_detach(c.get(), dt.out()));
        ok(ct_tensor_set_requires_grad(dt.get(), 1));
        b.push_back(dt);
    }
    std::vector<ct_tensor> bh = {b[0].get(), b[1].get()};
    Opt ob;
    ok(make_opt(bh.data(), &ob.o));
    copy_state(oa.o, ob.o, names, steps);
    for (double d : {0.3, 1.2}) train_step(oa.o, a, d), train_step(ob.o, b, d);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(values(a[i]), values(b[i])) << "param " << i;
    // without the state the trajectories differ (so the check above can fail)
    Opt oc;
    std::vector<H> c;
    for (auto& p : b) {
        H cl, dt;
        ok(ct_clone(p.get(), cl.out()));
        ok(ct_detach(cl.get(), dt.out()));
        ok(ct_tensor_set_requires_grad(dt.get(), 1));
        c.push_back(dt);
    }
    std::vector<ct_tensor> ch = {c[0].get(), c[1].get()};
    ok(make_opt(ch.data(), &oc.o));
    train_step(oc.o, c, 0.7), train_step(ob.o, b, 0.7);
    EXPECT_NE(values(b[0]), values(c[0]));
}
}  // namespace

TEST(OptimState, SgdMomentumResumesIdentically) {
    for_each_device([&] {
        check_resume([](const ct_tensor* p, ct_optimizer* o) { return ct_optim_sgd_new(p, 2, 0.1, 0.9, 0.0, 0.01, 0, o); },
                     {"momentum_buffer"}, false);
    });
}

TEST(OptimState, AdamAndAdamWResumeIdentically) {
    for_each_device([&] {
        check_resume([](const ct_tensor* p, ct_optimizer* o) { return ct_optim_adam_new(p, 2, 0.05, 0.9, 0.99, 1e-8, 0.0, o); },
                     {"exp_avg", "exp_avg_sq"}, true);
        check_resume([](const ct_tensor* p, ct_optimizer* o) { return ct_optim_adamw_new(p, 2, 0.05, 0.8, 0.9, 1e-8, 0.1, o); },
                     {"exp_avg", "exp_avg_sq"}, true);
    });
}

TEST(OptimState, NamesValuesAndErrors) {
    for_each_device([&] {
        H p = make({1.0, 2.0}, {2}, CT_FLOAT32, true);
        ct_tensor ph = p.get();
        Opt o;
        CT_ASSERT_OK(ct_optim_adam_new(&ph, 1, 0.1, 0.9, 0.999, 1e-8, 0.0, &o.o));
        char buf[64];
        int32_t len = 0, n = 0;
        CT_ASSERT_OK(ct_optimizer_state_names(o.o, buf, sizeof buf, &len));
        EXPECT_EQ(std::string(buf), "exp_avg,exp_avg_sq");
        EXPECT_EQ(len, 18);
        CT_ASSERT_OK(ct_optimizer_num_params(o.o, &n));
        EXPECT_EQ(n, 1);
        H s;
        CT_ASSERT_OK(ct_optimizer_get_state(o.o, 0, "exp_avg", s.out()));
        EXPECT_FALSE(s);  // not created before the first step
        H g = make({1.0, -1.0}, {2}, CT_FLOAT32);
        CT_ASSERT_OK(ct_tensor_set_grad(p.get(), g.get()));
        CT_ASSERT_OK(ct_optimizer_step(o.o));
        CT_ASSERT_OK(ct_optimizer_get_state(o.o, 0, "exp_avg", s.out()));
        EXPECT_TRUE(allclose(s, {0.1, -0.1}));  // (1 - beta1) * g
        EXPECT_EQ(dtype(s), CT_FLOAT32);
        int64_t step = 0;
        CT_ASSERT_OK(ct_optimizer_get_step(o.o, 0, &step));
        EXPECT_EQ(step, 1);
        H f64 = make({0.5, 0.5}, {2}, CT_FLOAT64), bad = make({1, 2, 3}, {3});
        CT_ASSERT_OK(ct_optimizer_set_state(o.o, 0, "exp_avg", f64.get()));  // converted to the param's dtype
        CT_ASSERT_OK(ct_optimizer_get_state(o.o, 0, "exp_avg", s.out()));
        EXPECT_EQ(dtype(s), CT_FLOAT32);
        EXPECT_TRUE(allclose(s, {0.5, 0.5}));
        CT_EXPECT_ERR(ct_optimizer_set_state(o.o, 0, "exp_avg", bad.get()), CT_ERR_SHAPE, "adam: state 'exp_avg' of shape [3]");
        CT_EXPECT_ERR(ct_optimizer_get_state(o.o, 0, "momentum", s.out()), CT_ERR_INVALID_ARGUMENT, "unknown state 'momentum'");
        CT_EXPECT_ERR(ct_optimizer_get_state(o.o, 1, "exp_avg", s.out()), CT_ERR_INDEX, "parameter index 1");
        CT_EXPECT_ERR(ct_optimizer_set_step(o.o, 0, -2), CT_ERR_INVALID_ARGUMENT, "must be >= 0");
        // clearing one moment leaves the other; the cleared one reads as NULL until the next step creates it
        // as zeros: exp_avg_sq = (1 - beta2) * g^2 = 0.001 after that step (g = +-1)
        CT_ASSERT_OK(ct_optimizer_set_state(o.o, 0, "exp_avg_sq", nullptr));
        ct_tensor cleared = p.get();  // must be overwritten with NULL
        CT_ASSERT_OK(ct_optimizer_get_state(o.o, 0, "exp_avg_sq", &cleared));
        EXPECT_EQ(cleared, nullptr);
        CT_ASSERT_OK(ct_optimizer_get_state(o.o, 0, "exp_avg", s.out()));
        EXPECT_TRUE(allclose(s, {0.5, 0.5}));
        CT_EXPECT_OK(ct_optimizer_step(o.o));
        CT_ASSERT_OK(ct_optimizer_get_state(o.o, 0, "exp_avg_sq", s.out()));
        EXPECT_TRUE(allclose(s, {1e-3, 1e-3}, 1e-6, 1e-9));
        Opt sgd;
        CT_ASSERT_OK(ct_optim_sgd_new(&ph, 1, 0.1, 0.0, 0.0, 0.0, 0, &sgd.o));
        CT_EXPECT_ERR(ct_optimizer_get_step(sgd.o, 0, &step), CT_ERR_NOT_SUPPORTED, "sgd: this optimizer keeps no step count");
    });
}
