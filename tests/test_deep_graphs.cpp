// test_deep_graphs.cpp - graphs up to a million nodes deep: forward, backward (also with create_graph and double
// backward), chains of views, and releasing every handle, all on the default 8 MiB stack (Note [Iterative
// teardown]); each test checks the values and that no handle is left.
#include <chrono>
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

constexpr int kDeep = 1000000;      // nodes of the mul chain
constexpr int kDeepOther = 300000;  // nodes of the other chains (keeps the ctest near 15 s on 2 cores)
constexpr int kDeepTwice = 100000;  // steps of the create_graph chain (each step is two nodes, then doubled)

struct Timer {
    const char* what;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    ~Timer() {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        printf("[ deep     ] %s: %.2f s\n", what, s);
    }
};

double item(const H& t) {
    double v = 0;
    ok(ct_tensor_item(t.get(), &v));
    return v;
}

// x * c repeated n times (one MulBackward node per step, each saving its inputs).
H mul_chain(const H& x, const H& c, int n) {
    H cur = x;
    for (int i = 0; i < n; ++i) {
        H next;
        ok(ct_mul(cur.get(), c.get(), next.out()));
        cur = next;
    }
    return cur;
}

}  // namespace

TEST(DeepGraphs, MillionNodeChainBackwardAndRelease) {
    int64_t live0 = ct_live_handles();
    {
        Timer t{"1e6 mul chain: forward + backward + release"};
        H x = make({1.0}, {1}, CT_FLOAT64, true);
        H c = make({1.000001}, {1}, CT_FLOAT64);
        H y = mul_chain(x, c, kDeep);
        EXPECT_NEAR(item(y), std::pow(1.000001, kDeep), 1e-9);
        H l, g;
        CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_NEAR(item(g), std::pow(1.000001, kDeep), 1e-9);
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

TEST(DeepGraphs, DeepChainReleasedWithoutBackward) {
    // A chain whose nodes still hold their saved tensors (no backward ran) and unary nodes saving their input.
    int64_t live0 = ct_live_handles();
    {
        Timer t{"3e5 sin chain: forward + release without backward"};
        H x = make({0.5}, {1}, CT_FLOAT32, true);
        H cur = x;
        for (int i = 0; i < kDeepOther; ++i) {
            H next;
            CT_ASSERT_OK(ct_sin(cur.get(), next.out()));
            cur = next;
        }
        EXPECT_GT(item(cur), 0.0);
        EXPECT_LT(item(cur), 0.01);  // sin iterated n times decays like sqrt(3/n)
        x = H();
        cur = H();  // the last handle of the whole graph: freed iteratively
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

TEST(DeepGraphs, CreateGraphThroughDeepChainThenDoubleBackward) {
    // y = x^(2^k) built as k squarings is too steep; use y = (x * c + 0) chain with a square at the end, so the
    // first derivative depends on x and the second one is a deep graph of its own.
    int64_t live0 = ct_live_handles();
    {
        Timer t{"1e5 mul+add chain: backward(create_graph) + double backward + release"};
        H x = make({2.0}, {1}, CT_FLOAT64, true);
        H c = make({1.00001}, {1}, CT_FLOAT64);
        H zero = make({0.0}, {1}, CT_FLOAT64);
        H cur = x;
        for (int i = 0; i < kDeepTwice; ++i) {
            H m, a;
            CT_ASSERT_OK(ct_mul(cur.get(), c.get(), m.out()));
            CT_ASSERT_OK(ct_add(m.get(), zero.get(), 1.0, a.out()));
            cur = a;
        }
        H sq, l;
        CT_ASSERT_OK(ct_mul(cur.get(), cur.get(), sq.out()));
        CT_ASSERT_OK(ct_sum(sq.get(), nullptr, 0, 0, l.out()));
        // d l/dx = 2 * x * C^2 with C = c^n, and d2 l/dx2 = 2 * C^2
        ct_tensor outs[1] = {l.get()}, ins[1] = {x.get()}, g1h = nullptr;
        CT_ASSERT_OK(ct_autograd_grad(outs, 1, nullptr, ins, 1, 0, 1, 0, &g1h));
        H g1(g1h);
        double C2 = std::pow(1.00001, 2.0 * kDeepTwice);
        EXPECT_NEAR(item(g1), 2 * 2.0 * C2, 1e-6 * C2);
        H g1s, g2;
        CT_ASSERT_OK(ct_sum(g1.get(), nullptr, 0, 0, g1s.out()));
        CT_ASSERT_OK(ct_backward(g1s.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g2.out()));
        EXPECT_NEAR(item(g2), 2 * C2, 1e-6 * C2);
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

TEST(DeepGraphs, CreateGraphIntoLeafGradIsFreed) {
    // backward(create_graph) into a leaf's .grad makes a grad <-> graph cycle through a deep graph; releasing
    // every handle must still free it (live handles back to the start, no stack overflow).
    int64_t live0 = ct_live_handles();
    {
        Timer t{"1e5 chain: backward(create_graph) into .grad + release"};
        H x = make({1.0, 2.0}, {2}, CT_FLOAT64, true);
        H c = make({1.0}, {1}, CT_FLOAT64);
        H y = mul_chain(x, c, kDeepTwice);
        H sq, l, g;
        CT_ASSERT_OK(ct_mul(y.get(), y.get(), sq.out()));
        CT_ASSERT_OK(ct_sum(sq.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 1));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {2.0, 4.0}));
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

TEST(DeepGraphs, DeepViewChain) {
    // Before Note [View chains] each view copied its parent's whole remake chain: O(depth^2) time and memory
    // (a 10^6-deep chain ran for more than 9 minutes).
    // Views of views: alternately unsqueeze and squeeze, then narrow; each is a view node over the root base.
    int64_t live0 = ct_live_handles();
    {
        Timer t{"3e5 view chain: forward + backward + release"};
        H x = make({1.0, 2.0, 3.0}, {3}, CT_FLOAT32, true);
        H cur = x;
        for (int i = 0; i < kDeepOther / 2; ++i) {
            H u, s;
            CT_ASSERT_OK(ct_unsqueeze(cur.get(), 0, u.out()));
            CT_ASSERT_OK(ct_squeeze(u.get(), 0, s.out()));
            cur = s;
        }
        H n, l, g;
        CT_ASSERT_OK(ct_narrow(cur.get(), 0, 1, 2, n.out()));
        EXPECT_TRUE(allclose(n, {2.0, 3.0}));
        CT_ASSERT_OK(ct_sum(n.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {0.0, 1.0, 1.0}));
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

TEST(DeepGraphs, DeepViewChainOfModifiedBase) {
    // An in-place write through the deepest view makes every view's history stale: reading it rebuilds the
    // history from the root base (Note [View history]) instead of walking the chain.
    int64_t live0 = ct_live_handles();
    {
        Timer t{"1e5 view chain of a non-leaf base, in-place write + backward + release"};
        H x = make({1.0, 2.0}, {2}, CT_FLOAT64, true);
        H two = make({2.0}, {1}, CT_FLOAT64);
        H base;
        CT_ASSERT_OK(ct_mul(x.get(), two.get(), base.out()));
        H cur = base;
        for (int i = 0; i < kDeepTwice; ++i) {
            H u, s;
            CT_ASSERT_OK(ct_unsqueeze(cur.get(), 0, u.out()));
            CT_ASSERT_OK(ct_squeeze(u.get(), 0, s.out()));
            cur = s;
        }
        CT_ASSERT_OK(ct_mul_(cur.get(), two.get()));  // base = x * 4 now
        H l, g;
        CT_ASSERT_OK(ct_sum(base.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {4.0, 4.0}));
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

namespace {
// A custom function whose context keeps its input alive (as a binding's closure would): releasing the chain
// runs each ctx_release, which releases the previous link's output from inside the teardown.
ct_status identity_backward(void*, const ct_tensor* go, int32_t, ct_tensor* gi, int32_t) {
    gi[0] = ct_tensor_retain(go[0]);
    return CT_OK;
}
void release_input(void* ctx) { ct_tensor_release(static_cast<ct_tensor>(ctx)); }
}  // namespace

TEST(DeepGraphs, DeepChainOfCustomFunctionsHoldingTheirInputs) {
    int64_t live0 = ct_live_handles();
    {
        Timer t{"1e5 custom-function chain (ctx holds the input): backward + release"};
        H x = make({3.0}, {1}, CT_FLOAT64, true);
        H cur = x;
        for (int i = 0; i < kDeepTwice; ++i) {
            ct_tensor in = cur.get(), res = nullptr;
            CT_ASSERT_OK(ct_custom_function_apply("Id", &in, 1, &in, 1, identity_backward, ct_tensor_retain(in),
                                                  release_input, &res));
            cur = H(res);
        }
        H l, g;
        CT_ASSERT_OK(ct_sum(cur.get(), nullptr, 0, 0, l.out()));
        CT_ASSERT_OK(ct_backward(l.get(), nullptr, 0, 0));
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_TRUE(allclose(g, {1.0}));
    }
    EXPECT_EQ(ct_live_handles(), live0);
}
