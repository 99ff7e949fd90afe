// test_cuda_optim.cpp - optimizers with parameters on CUDA: SGD (momentum, dampening, nesterov, weight decay)
// takes the CPU's steps; zero_grad clears device gradients; Adam/AdamW refuse CUDA parameters for now.
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

TEST(CudaGpu, AdamRefusesCudaParametersForNow) {
    REQUIRE_CUDA();
    H p = param_with_grad({1, 2}, {0.1, 0.2}, {2}, ct_cuda(0));
    ct_optimizer o = nullptr;
    CT_EXPECT_ERR(ct_optim_adam_new(std::vector<ct_tensor>{p.get()}.data(), 1, 1e-3, 0.9, 0.999, 1e-8, 0, &o),
                  CT_ERR_NOT_SUPPORTED, "adam: not implemented for cuda tensors yet");
    EXPECT_EQ(o, nullptr);
}
