// test_autograd.cpp - backward, accumulation, retain_graph, create_graph, grad mode, version checks,
// autograd.grad, retain_grad, custom C-callback functions and deep graphs.
#include <thread>
#include "ct_test.h"

using namespace ctt;

TEST(Autograd, SimpleBackward) {
    for_each_device([&] {
        H x = make({1, 2, 3}, {3}, CT_FLOAT64, true);
        H y, l, g;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {2, 4, 6}));
        char name[64];
        int32_t len;
        CT_ASSERT_OK(ct_tensor_grad_fn_name(y.get(), name, sizeof name, &len));
        EXPECT_STREQ(name, "MulBackward");
        int32_t leaf;
        CT_ASSERT_OK(ct_tensor_is_leaf(y.get(), &leaf));
        EXPECT_EQ(leaf, 0);
    });
}

TEST(Autograd, AccumulatesAcrossBackwardCalls) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true);
        for (int i = 0; i < 2; ++i) {
            H l;
            CT_ASSERT_OK(ct_sum(x.get(), nullptr, 0, 0, l.out()));
            CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        }
        H g;
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {2, 2}));
    });
}

TEST(Autograd, SecondBackwardNeedsRetainGraph) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true);
        H y, l;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 1, 0));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_EXPECT_ERR(ct_backward(l.get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "second time");
        H g;
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {4, 8}));
    });
}

TEST(Autograd, NonScalarNeedsGradOutput) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true);
        H y, g;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
        CT_EXPECT_ERR(ct_backward(y.get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "one element");
        H go = make({1, 10}, {2});
        CT_ASSERT_OK(ct_backward(y.get(), go.get(), 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {2, 40}));
        H bad = make({1, 2, 3}, {3});
        CT_EXPECT_ERR(ct_backward(y.get(), bad.get(), 0, 0), CT_ERR_SHAPE, "grad_output");
    });
}

TEST(Autograd, GradModeOffRecordsNothing) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true);
        int32_t prev = -1;
        CT_ASSERT_OK(ct_set_grad_enabled(0, &prev));
        EXPECT_EQ(prev, 1);
        H y;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
        CT_ASSERT_OK(ct_set_grad_enabled(1, nullptr));
        int32_t rg = 1;
        CT_ASSERT_OK(ct_tensor_requires_grad(y.get(), &rg));
        EXPECT_EQ(rg, 0);
        // grad mode is per thread
        std::thread th([] { EXPECT_EQ(ct_is_grad_enabled(), 1); ct_set_grad_enabled(0, nullptr); });
        th.join();
        EXPECT_EQ(ct_is_grad_enabled(), 1);
    });
}

TEST(Autograd, Broadcasting) {
    for_each_device([&] {
        H a = randt({2, 3}, 1), b = randt({3}, 2), c = randt({2, 1}, 3);
        EXPECT_TRUE(gradcheck([](const std::vector<H>& in) {
            H ab, abc;
            ok(ct_mul(in[0].get(), in[1].get(), ab.out()));
            ok(ct_add(ab.get(), in[2].get(), 2.0, abc.out()));
            return abc;
        }, {a, b, c}));
    });
}

TEST(Autograd, DoubleBackward) {
    for_each_device([&] {
        H x = randt({3}, 4);
        EXPECT_TRUE(gradgradcheck([](const std::vector<H>& in) {
            H y, z;
            ok(ct_mul(in[0].get(), in[0].get(), y.out()));
            ok(ct_mul(y.get(), in[0].get(), z.out()));
            return z;
        }, {x}));
    });
}

TEST(Autograd, AutogradGradDoesNotTouchDotGrad) {
    for_each_device([&] {
        H x = make({3}, {1}, CT_FLOAT64, true);
        H y, l;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        ct_tensor out = nullptr, lh = l.get(), xh = x.get();
        CT_ASSERT_OK(ct_autograd_grad(&lh, 1, nullptr, &xh, 1, 0, 0, 0, &out));
        H g(out), xg;
        EXPECT_TRUE(allclose(g, {6}));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), xg.out()));
        EXPECT_FALSE(xg);
        H unused = make({1}, {1}, CT_FLOAT64, true);
        H y2, l2;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), y2.out()));
        CT_ASSERT_OK(ct_sum(y2.get(), nullptr, 0, 0, l2.out()));
        ct_tensor uh = unused.get(), l2h = l2.get();
        CT_EXPECT_ERR(ct_autograd_grad(&l2h, 1, nullptr, &uh, 1, 1, 0, 0, &out), CT_ERR_AUTOGRAD, "allow_unused");
        CT_ASSERT_OK(ct_autograd_grad(&l2h, 1, nullptr, &uh, 1, 0, 0, 1, &out));
        EXPECT_EQ(out, nullptr);
    });
}

TEST(Autograd, RetainGradOnNonLeaf) {
    for_each_device([&] {
        H x = make({1, 2}, {2}, CT_FLOAT64, true);
        H y, l, g;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
        CT_ASSERT_OK(ct_tensor_retain_grad(y.get()));
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(y.get(), g.out()));
        EXPECT_TRUE(allclose(g, {1, 1}));
    });
}

TEST(Autograd, DeepGraphHasNoRecursionLimit) {
    // CPU only: the engine's graph walk and teardown do not depend on the device, and 1e5 kernel launches
    // would dominate the emulated CUDA run.
    H x = make({1.0}, {1}, CT_FLOAT64, true);
    H cur = x;
    H one = make({1e-6}, {1});
    for (int i = 0; i < 100000; ++i) {
        H next;
        CT_ASSERT_OK(ct_add(cur.get(), one.get(), 1.0, next.out()));
        cur = next;
    }
    H l, g;
    CT_ASSERT_OK(ct_sum(cur.get(), nullptr, 0, 0, l.out()));
    CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
    CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
    EXPECT_TRUE(allclose(g, {1}));
    cur = H();  // freeing a long chain must not overflow the stack either
}

TEST(Autograd, RequiresGradOnlyForFloats) {
    for_each_device([&] {
        H i = make({1, 2}, {2}, CT_INT64);
        CT_EXPECT_ERR(ct_tensor_set_requires_grad(i.get(), 1), CT_ERR_DTYPE, "int64");
    });
}

namespace {
struct SquareCtx {
    ct_tensor x;
    int* released;
};
ct_status square_backward(void* ctx, const ct_tensor* go, int32_t nout, ct_tensor* gi, int32_t nin) {
    auto* c = static_cast<SquareCtx*>(ctx);
    if (nout != 1 || nin != 1) return ct_set_error(CT_ERR_INTERNAL, "bad arity");
    ct_tensor two_x = nullptr;
    ct_status st = ct_add(c->x, c->x, 1.0, &two_x);
    if (st != CT_OK) return st;
    st = ct_mul(go[0], two_x, &gi[0]);
    ct_tensor_release(two_x);
    return st;
}
void square_release(void* ctx) {
    auto* c = static_cast<SquareCtx*>(ctx);
    ct_tensor_release(c->x);
    *c->released += 1;
    delete c;
}
ct_status failing_backward(void*, const ct_tensor*, int32_t, ct_tensor*, int32_t) {
    return ct_set_error(CT_ERR_INVALID_ARGUMENT, "user says no");
}
}  // namespace

TEST(Autograd, CustomFunctionWithCallback) {
    for_each_device([&] {
        int released = 0;
        {
            H x = make({1, 2, 3}, {3}, CT_FLOAT64, true);
            H y;
            int32_t prev;
            ct_set_grad_enabled(0, &prev);
            CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));
            ct_set_grad_enabled(prev, nullptr);
            auto* ctx = new SquareCtx{ct_tensor_retain(x.get()), &released};
            ct_tensor xin = x.get(), yout = y.get(), res = nullptr;
            CT_ASSERT_OK(ct_custom_function_apply("SquareBackward", &xin, 1, &yout, 1, square_backward, ctx, square_release, &res));
            H r(res), l, g;
            char name[64];
            CT_ASSERT_OK(ct_tensor_grad_fn_name(r.get(), name, sizeof name, nullptr));
            EXPECT_STREQ(name, "SquareBackward");
            CT_ASSERT_OK(ct_sum(r.get(), nullptr, 0, 0, l.out()));
            CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
            CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
            EXPECT_TRUE(allclose(g, {2, 4, 6}));
        }
        EXPECT_EQ(released, 1);
        // a failing callback becomes CT_ERR_CALLBACK with the user's message
        H x = make({1}, {1}, CT_FLOAT64, true);
        ct_tensor xin = x.get(), res = nullptr;
        CT_ASSERT_OK(ct_custom_function_apply("Fails", &xin, 1, &xin, 1, failing_backward, nullptr, nullptr, &res));
        H r(res), l;
        CT_ASSERT_OK(ct_sum(r.get(), nullptr, 0, 0, l.out()));
        CT_EXPECT_ERR(ct_backward(l.get(), nullptr, 0, 0), CT_ERR_CALLBACK, "user says no");
    });
}

TEST(Autograd, DeepGraphOfSavingOpsIsFreedIteratively) {
    // CPU only: the engine's graph walk and teardown do not depend on the device, and 1e5 kernel launches
    // would dominate the emulated CUDA run.
    // Each mul saves its inputs, so the chain also runs through saved tensors (Note [Iterative teardown]).
    H x = make({1.0}, {1}, CT_FLOAT64, true);
    H c = make({1.0}, {1});
    H cur = x;
    for (int i = 0; i < 200000; ++i) {
        H next;
        CT_ASSERT_OK(ct_mul(cur.get(), c.get(), next.out()));
        cur = next;
    }
    cur = H();  // dropping the last handle frees 200000 nodes without recursion
    SUCCEED();
}
