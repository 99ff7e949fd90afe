// test_cuda_optim.cpp - optimizers with parameters on CUDA: SGD (momentum, dampening, nesterov, weight decay)
// and Adam/AdamW (one fused kernel, core/optim_math.h) take the CPU's steps; zero_grad clears device gradients;
// optimizer state lives on the parameter's device and round-trips through get/set_state.
#include <cmath>
#include <tuple>
#include "cuda_compare.h"

using namespace ctt;

namespace {

// A leaf parameter on device d with values v, and a gradient set from gv.
H param_with_grad(const std::vector<double>& v, const std::vector<double>& gv, const Shape& s, ct_device d) {
    H p = on(make(v, s), d), g = on(make(gv, s), d);
    ok(ct_tensor_set_requires_grad(p.get(), 1));
    ok(ct_tensor_set_grad(p.get(), g.get()));
    return p;
}

}  // namespace

TEST(CudaGpu, SgdStepsMatchCpu) {
    REQUIRE_CUDA();
    struct Cfg {
        double momentum, dampening, wd;
        int nesterov;
    } cfgs[] = {{0, 0, 0, 0}, {0.9, 0, 0, 0}, {0.9, 0.1, 0.01, 0}, {0.9, 0, 0.05, 1}, {0, 0, 0.1, 0}};
    std::vector<double> v = rand_values(12, 1), gv = rand_values(12, 2);
    for (auto& c : cfgs) {
        SCOPED_TRACE("momentum " + std::to_string(c.momentum) + " nesterov " + std::to_string(c.nesterov));
        H pc = param_with_grad(v, gv, {3, 4}, ct_cpu()), pd = param_with_grad(v, gv, {3, 4}, ct_cuda(0));
        ct_optimizer oc = nullptr, od = nullptr;
        CT_ASSERT_OK(ct_optim_sgd_new(std::vector<ct_tensor>{pc.get()}.data(), 1, 0.1, c.momentum, c.dampening, c.wd,
                                      c.nesterov, &oc));
        CT_ASSERT_OK(ct_optim_sgd_new(std::vector<ct_tensor>{pd.get()}.data(), 1, 0.1, c.momentum, c.dampening, c.wd,
                                      c.nesterov, &od));
        for (int step = 0; step < 3; ++step) {  // the same gradient each step: momentum buffers build up
            CT_EXPECT_OK(ct_optimizer_step(oc));
            CT_EXPECT_OK(ct_optimizer_step(od));
        }
        EXPECT_EQ(device_of(pd).type, CT_DEVICE_CUDA);
        EXPECT_TRUE(allclose(pd, values(pc), 1e-12, 1e-12));
        CT_EXPECT_OK(ct_optimizer_zero_grad(od, 0));
        H g;
        CT_ASSERT_OK(ct_tensor_grad(pd.get(), g.out()));
        EXPECT_EQ(values(g), std::vector<double>(12, 0.0));
        ct_optimizer_release(oc);
        ct_optimizer_release(od);
    }
}

TEST(CudaGpu, SgdOnAStridedCudaParameter) {
    REQUIRE_CUDA();
    std::vector<double> v = rand_values(6, 3), gv = rand_values(6, 4);
    H base = on(make(v, {2, 3}), ct_cuda(0)), pt;
    CT_ASSERT_OK(ct_transpose(base.get(), 0, 1, pt.out()));  // a non-contiguous leaf
    H p, g = on(make(gv, {3, 2}), ct_cuda(0));
    CT_ASSERT_OK(ct_detach(pt.get(), p.out()));
    CT_ASSERT_OK(ct_tensor_set_requires_grad(p.get(), 1));
    CT_ASSERT_OK(ct_tensor_set_grad(p.get(), g.get()));
    ct_optimizer o = nullptr;
    CT_ASSERT_OK(ct_optim_sgd_new(std::vector<ct_tensor>{p.get()}.data(), 1, 0.5, 0, 0, 0, 0, &o));
    CT_EXPECT_OK(ct_optimizer_step(o));
    ct_optimizer_release(o);
    std::vector<double> pv = values(p), want;
    H pcpu = transposed(make(v, {2, 3}));
    std::vector<double> pc = values(pcpu);
    for (size_t i = 0; i < pc.size(); ++i) want.push_back(pc[i] - 0.5 * gv[i]);
    EXPECT_TRUE(allclose(p, want, 1e-12, 1e-12));
}

using OptimNew = ct_status (*)(const ct_tensor*, int32_t, double, double, double, double, double, ct_optimizer*);

// Adam / AdamW on cuda:0 take the CPU's steps (float32 and float64, with and without weight decay, gradients
// that change every step, beta1 on both sides of the lerp switch), and the moments live on the device.
TEST(CudaGpu, AdamStepsMatchCpu) {
    REQUIRE_CUDA();
    struct Cfg {
        const char* name;
        OptimNew make;
        double beta1, wd;
    } cfgs[] = {{"adam", ct_optim_adam_new, 0.9, 0.0},  {"adam", ct_optim_adam_new, 0.3, 0.05},
                {"adamw", ct_optim_adamw_new, 0.9, 0.1}, {"adamw", ct_optim_adamw_new, 0.6, 0.0}};
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64})
        for (auto& c : cfgs) {
            SCOPED_TRACE(std::string(c.name) + " beta1 " + std::to_string(c.beta1) + " wd " + std::to_string(c.wd) +
                         " dtype " + std::to_string(dt));
            std::vector<double> v = rand_values(37, 5);
            H pc = make(v, {37}, dt, true), pd = leaf_on(make(v, {37}, dt), ct_cuda(0), true);
            ct_optimizer oc = nullptr, od = nullptr;
            CT_ASSERT_OK(c.make(std::vector<ct_tensor>{pc.get()}.data(), 1, 0.01, c.beta1, 0.99, 1e-8, c.wd, &oc));
            CT_ASSERT_OK(c.make(std::vector<ct_tensor>{pd.get()}.data(), 1, 0.01, c.beta1, 0.99, 1e-8, c.wd, &od));
            for (int step = 0; step < 4; ++step) {
                H g = make(rand_values(37, 10 + step), {37}, dt);
                ok(ct_tensor_set_grad(pc.get(), g.get()));
                ok(ct_tensor_set_grad(pd.get(), on(g, ct_cuda(0)).get()));
                CT_EXPECT_OK(ct_optimizer_step(oc));
                CT_EXPECT_OK(ct_optimizer_step(od));
            }
            EXPECT_EQ(device_of(pd).type, CT_DEVICE_CUDA);
            const double tol = dt == CT_FLOAT32 ? 1e-6 : 1e-12;
            EXPECT_TRUE(allclose(pd, values(pc), tol, tol));
            for (const char* name : {"exp_avg", "exp_avg_sq"}) {
                H sc, sd;
                CT_ASSERT_OK(ct_optimizer_get_state(oc, 0, name, sc.out()));
                CT_ASSERT_OK(ct_optimizer_get_state(od, 0, name, sd.out()));
                EXPECT_EQ(device_of(sd).type, CT_DEVICE_CUDA) << name;
                EXPECT_EQ(dtype(sd), dt);
                EXPECT_TRUE(allclose(sd, values(sc), tol, tol)) << name;
            }
            ct_optimizer_release(oc);
            ct_optimizer_release(od);
        }
}

// The update of one element, written out from torch.optim.Adam's documentation (independent of the kernel).
TEST(CudaGpu, AdamFirstStepsByHand) {
    REQUIRE_CUDA();
    H p = leaf_on(make({1.0, -2.0, 0.5}, {3}), ct_cuda(0), true);
    ct_optimizer o = nullptr;
    CT_ASSERT_OK(ct_optim_adam_new(std::vector<ct_tensor>{p.get()}.data(), 1, 0.1, 0.9, 0.999, 1e-8, 0.01, &o));
    std::vector<double> w = {1.0, -2.0, 0.5}, m(3, 0.0), v(3, 0.0);
    const double gs[2][3] = {{0.5, -1.0, 2.0}, {-0.25, 0.75, 0.0}};
    for (int t = 1; t <= 2; ++t) {
        H g = on(make({gs[t - 1][0], gs[t - 1][1], gs[t - 1][2]}, {3}), ct_cuda(0));
        ok(ct_tensor_set_grad(p.get(), g.get()));
        CT_ASSERT_OK(ct_optimizer_step(o));
        for (int k = 0; k < 3; ++k) {
            const double gk = gs[t - 1][k] + 0.01 * w[k];
            m[k] = 0.9 * m[k] + 0.1 * gk;
            v[k] = 0.999 * v[k] + 0.001 * gk * gk;
            const double mhat = m[k] / (1 - std::pow(0.9, t)), vhat = v[k] / (1 - std::pow(0.999, t));
            w[k] -= 0.1 * mhat / (std::sqrt(vhat) + 1e-8);
        }
    }
    EXPECT_TRUE(allclose(p, w, 1e-12, 1e-12));
    ct_optimizer_release(o);
}

// A non-contiguous CUDA parameter goes through a contiguous copy and is written back.
TEST(CudaGpu, AdamOnAStridedCudaParameter) {
    REQUIRE_CUDA();
    std::vector<double> v = rand_values(6, 3), gv = rand_values(6, 4);
    H pc = transposed(make(v, {2, 3})), pcl, pd = transposed(on(make(v, {2, 3}), ct_cuda(0))), pdl;
    CT_ASSERT_OK(ct_detach(pc.get(), pcl.out()));
    CT_ASSERT_OK(ct_detach(pd.get(), pdl.out()));
    ct_optimizer oc = nullptr, od = nullptr;
    for (auto [p, o, d] : {std::tuple{&pcl, &oc, ct_cpu()}, std::tuple{&pdl, &od, ct_cuda(0)}}) {
        CT_ASSERT_OK(ct_tensor_set_requires_grad(p->get(), 1));
        CT_ASSERT_OK(ct_tensor_set_grad(p->get(), on(make(gv, {3, 2}), d).get()));
        CT_ASSERT_OK(ct_optim_adamw_new(std::vector<ct_tensor>{p->get()}.data(), 1, 0.1, 0.9, 0.99, 1e-8, 0.1, o));
        CT_EXPECT_OK(ct_optimizer_step(*o));
        CT_EXPECT_OK(ct_optimizer_step(*o));
    }
    EXPECT_TRUE(allclose(pdl, values(pcl), 1e-12, 1e-12));
    EXPECT_FALSE(allclose(pdl, values(transposed(make(v, {2, 3}))), 1e-3, 1e-3));  // it did move
    ct_optimizer_release(oc);
    ct_optimizer_release(od);
}

// State of a CUDA optimizer saved after two steps and loaded into a fresh one resumes exactly; state given on
// the CPU for a CUDA parameter is refused; CUDA state is converted to the parameter's dtype.
TEST(CudaGpu, AdamStateRoundTripOnCuda) {
    REQUIRE_CUDA();
    std::vector<double> v = rand_values(8, 7);
    H a = leaf_on(make(v, {2, 4}), ct_cuda(0), true);
    ct_optimizer oa = nullptr, ob = nullptr;
    CT_ASSERT_OK(ct_optim_adam_new(std::vector<ct_tensor>{a.get()}.data(), 1, 0.05, 0.8, 0.9, 1e-8, 0.0, &oa));
    auto step_with = [&](ct_optimizer o, const H& p, uint64_t seed) {
        ok(ct_tensor_set_grad(p.get(), on(make(rand_values(8, seed), {2, 4}), ct_cuda(0)).get()));
        CT_EXPECT_OK(ct_optimizer_step(o));
    };
    step_with(oa, a, 20);
    step_with(oa, a, 21);
    H b = leaf_on(make(values(a), {2, 4}), ct_cuda(0), true);  // the parameter values, then the state
    CT_ASSERT_OK(ct_optim_adam_new(std::vector<ct_tensor>{b.get()}.data(), 1, 0.05, 0.8, 0.9, 1e-8, 0.0, &ob));
    for (const char* name : {"exp_avg", "exp_avg_sq"}) {
        H s;
        CT_ASSERT_OK(ct_optimizer_get_state(oa, 0, name, s.out()));
        CT_ASSERT_OK(ct_optimizer_set_state(ob, 0, name, s.get()));
    }
    int64_t step = 0;
    CT_ASSERT_OK(ct_optimizer_get_step(oa, 0, &step));
    CT_ASSERT_OK(ct_optimizer_set_step(ob, 0, step));
    step_with(oa, a, 22);
    step_with(ob, b, 22);
    EXPECT_TRUE(allclose(b, values(a), 1e-12, 1e-12));
    H cpu_state = make(rand_values(8, 1), {2, 4});
    CT_EXPECT_ERR(ct_optimizer_set_state(ob, 0, "exp_avg", cpu_state.get()), CT_ERR_DEVICE, "adam");
    H f32 = on(make(rand_values(8, 2, 0.0, 1.0), {2, 4}, CT_FLOAT32), ct_cuda(0)), s;
    CT_ASSERT_OK(ct_optimizer_set_state(ob, 0, "exp_avg_sq", f32.get()));
    CT_ASSERT_OK(ct_optimizer_get_state(ob, 0, "exp_avg_sq", s.out()));
    EXPECT_EQ(dtype(s), CT_FLOAT64);
    EXPECT_EQ(device_of(s).type, CT_DEVICE_CUDA);
    EXPECT_TRUE(allclose(s, values(f32), 1e-7, 1e-7));
    ct_optimizer_release(oa);
    ct_optimizer_release(ob);
}
