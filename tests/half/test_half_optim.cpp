// test_half_optim.cpp - optimizer steps on float16/bfloat16 parameters (issue 15, Note [Half step] in
// src/ops/optim.cpp): SGD (momentum, Nesterov, weight decay), Adam and AdamW update a half parameter like a float32
// parameter holding the same values, to within the rounding of the parameter and its state to half after each
// step; the parameter and its state keep the half dtype.
#include <gtest/gtest.h>
#include <cmath>
#include <functional>
#include <vector>
#include <ctensor.h>

namespace {

struct Owned {
    ct_tensor h = nullptr;
    ~Owned() { ct_tensor_release(h); }
};
struct OwnedOpt {
    ct_optimizer h = nullptr;
    ~OwnedOpt() { ct_optimizer_release(h); }
};

void from(const std::vector<double>& v, ct_dtype d, Owned& out) {
    Owned f64;
    int64_t n = (int64_t)v.size();
    ASSERT_EQ(ct_tensor_from_data(v.data(), n * 8, &n, 1, CT_FLOAT64, ct_cpu(), &f64.h), CT_OK);
    ASSERT_EQ(ct_to_dtype(f64.h, d, &out.h), CT_OK) << ct_last_error();
}
std::vector<double> host(ct_tensor t) {
    Owned f64;
    EXPECT_EQ(ct_to_dtype(t, CT_FLOAT64, &f64.h), CT_OK);
    std::vector<double> v(6);
    EXPECT_EQ(ct_tensor_copy_to_host(f64.h, v.data(), 48), CT_OK);
    return v;
}

using MakeOpt = std::function<ct_status(ct_tensor*, ct_optimizer*)>;

struct Case {
    const char* name;
    MakeOpt make;
    std::vector<const char*> state;
};

class HalfOptim : public ::testing::TestWithParam<ct_dtype> {};

TEST_P(HalfOptim, StepMatchesFloat32OnTheSameValues) {
    const ct_dtype d = GetParam();
    const std::vector<Case> cases = {
        {"sgd", [](ct_tensor* p, ct_optimizer* o) { return ct_optim_sgd_new(p, 1, 0.1, 0.9, 0.0, 0.01, 1, o); }, {"momentum_buffer"}},
        {"adam", [](ct_tensor* p, ct_optimizer* o) { return ct_optim_adam_new(p, 1, 0.05, 0.9, 0.999, 1e-8, 0.01, o); }, {"exp_avg", "exp_avg_sq"}},
        {"adamw", [](ct_tensor* p, ct_optimizer* o) { return ct_optim_adamw_new(p, 1, 0.05, 0.9, 0.999, 1e-8, 0.1, o); }, {"exp_avg", "exp_avg_sq"}},
    };
    const std::vector<double> p0 = {0.5, -1.25, 2.0, 0.1, -0.3, 3.5};
    // one ulp at 1 in the half dtype; the update's size is about lr, so a few ulps of the parameters' scale
    const double eps = d == CT_FLOAT16 ? 0x1p-10 : 0x1p-7;
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        Owned ph, pf;
        from(p0, d, ph);
        ASSERT_EQ(ct_to_dtype(ph.h, CT_FLOAT32, &pf.h), CT_OK);  // the same (rounded) values in float32
        OwnedOpt oh, of;
        ASSERT_EQ(c.make(&ph.h, &oh.h), CT_OK) << ct_last_error();
        ASSERT_EQ(c.make(&pf.h, &of.h), CT_OK) << ct_last_error();
        for (int step = 0; step < 4; ++step) {
            std::vector<double> g = {0.3, -0.7, 1.5, -0.05, 0.9 - step, 0.2 * step};
            Owned gh, gf;
            from(g, d, gh);
            ASSERT_EQ(ct_to_dtype(gh.h, CT_FLOAT32, &gf.h), CT_OK);
            ASSERT_EQ(ct_tensor_set_grad(ph.h, gh.h), CT_OK) << ct_last_error();
            ASSERT_EQ(ct_tensor_set_grad(pf.h, gf.h), CT_OK) << ct_last_error();
            ASSERT_EQ(ct_optimizer_step(oh.h), CT_OK) << ct_last_error();
            ASSERT_EQ(ct_optimizer_step(of.h), CT_OK) << ct_last_error();
        }
        ct_dtype pd;
        ASSERT_EQ(ct_tensor_dtype(ph.h, &pd), CT_OK);
        EXPECT_EQ(pd, d);
        std::vector<double> got = host(ph.h), want = host(pf.h);
        for (size_t k = 0; k < got.size(); ++k) {
            EXPECT_NE(got[k], p0[k]) << "element " << k << " was not updated";
            EXPECT_NEAR(got[k], want[k], 4 * eps * (1 + std::fabs(want[k]))) << "element " << k;
        }
        for (const char* s : c.state) {
            Owned st;
            ASSERT_EQ(ct_optimizer_get_state(oh.h, 0, s, &st.h), CT_OK) << ct_last_error();
            ct_dtype sd;
            ASSERT_EQ(ct_tensor_dtype(st.h, &sd), CT_OK);
            EXPECT_EQ(sd, d) << s;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, HalfOptim, ::testing::Values(CT_FLOAT16, CT_BFLOAT16),
                         [](const auto& info) { return std::string(ct_dtype_name(info.param)); });

}  // namespace
