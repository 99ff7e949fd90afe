// test_hardening_autograd.cpp - regression tests for issue 18's autograd findings: stale-view history
// rebuilt by many reading threads at once (finding 6), and the grad <-> graph cycle of create_graph (finding 7).
#include <dlpack/dlpack.h>
#include <atomic>
#include <string>
#include <thread>
#include <vector>
#include "ct_test.h"

using namespace ctt;

namespace {

// ---- finding 6: stale views read from many threads -------------------------------------------------------

struct ViewReads {
    int32_t leaf = -1, requires = -1;
    std::string grad_fn;
};

ViewReads read_view(ct_tensor v) {
    ViewReads r;
    char name[64] = {0};
    ok(ct_tensor_is_leaf(v, &r.leaf));
    ok(ct_tensor_requires_grad(v, &r.requires));
    ok(ct_tensor_grad_fn_name(v, name, sizeof name, nullptr));
    r.grad_fn = name;
    return r;
}

// Runs body(i) on n threads released at once (so their first reads race).
void run_together(int n, const std::function<void(int)>& body) {
    std::atomic<int> waiting{n};
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i)
        threads.emplace_back([&, i] {
            waiting.fetch_sub(1);
            while (waiting.load() > 0) std::this_thread::yield();
            body(i);
        });
    for (auto& t : threads) t.join();
}

}  // namespace

TEST(HardeningAutograd, StaleViewIsReadAndBackpropagatedFromManyThreads) {
    const int kThreads = 8;
    H w = randt({4, 3}, 18, true);
    std::vector<double> wv = values(w);
    H two = make({2.0}, {});
    for (int round = 0; round < 20; ++round) {
        CT_ASSERT_OK(ct_tensor_set_grad(w.get(), nullptr));
        H base, view;
        CT_ASSERT_OK(ct_mul(w.get(), w.get(), base.out()));  // w^2, a non-leaf
        CT_ASSERT_OK(ct_slice(base.get(), 0, 1, 3, 1, view.out()));
        CT_ASSERT_OK(ct_mul_(base.get(), two.get()));  // the view's recorded history is now stale
        std::vector<ViewReads> reads(kThreads);
        std::vector<std::string> errors(kThreads);
        run_together(kThreads, [&](int i) {
            try {
                reads[i] = read_view(view.get());
                H s;
                ok(ct_sum(view.get(), nullptr, 0, 0, s.out()));
                ok(ct_backward(s.get(), nullptr, 1, 0));  // concurrent backward into the shared leaf w
            } catch (const std::exception& e) {
                errors[i] = e.what();
            }
        });
        ViewReads expected = read_view(view.get());
        EXPECT_EQ(expected.leaf, 0);
        EXPECT_EQ(expected.requires, 1);
        EXPECT_FALSE(expected.grad_fn.empty());
        for (int i = 0; i < kThreads; ++i) {
            EXPECT_EQ(errors[i], "") << "thread " << i;
            EXPECT_EQ(reads[i].leaf, expected.leaf);
            EXPECT_EQ(reads[i].requires, expected.requires);
            EXPECT_EQ(reads[i].grad_fn, expected.grad_fn);
        }
        // d/dw of sum(rows 1..2 of 2 w^2), once per thread: the rebuilt history includes the in-place * 2
        H g;
        CT_ASSERT_OK(ct_tensor_grad(w.get(), g.out()));
        std::vector<double> want(wv.size(), 0.0);
        for (size_t k = 3; k < 9; ++k) want[k] = kThreads * 4.0 * wv[k];
        ASSERT_TRUE(allclose(g, want, 1e-9, 1e-9)) << "round " << round;
    }
}

// ---- finding 7: create_graph keeps no cycle once the handles are gone ------------------------------------

namespace {

std::atomic<int> g_dl_deletes{0};

struct Foreign {
    std::vector<double> buffer;
    int64_t shape[1];
    DLManagedTensor managed{};
};

// x = [1, 2, 3] as float64 imported through DLPack; its deleter counts in g_dl_deletes.
H foreign_x() {
    auto* f = new Foreign{{1.0, 2.0, 3.0}, {3}};
    DLTensor& dl = f->managed.dl_tensor;
    dl.data = f->buffer.data();
    dl.device = DLDevice{kDLCPU, 0};
    dl.ndim = 1;
    dl.dtype = DLDataType{kDLFloat, 64, 1};
    dl.shape = f->shape;
    dl.strides = nullptr;
    dl.byte_offset = 0;
    f->managed.manager_ctx = f;
    f->managed.deleter = [](DLManagedTensor* m) {
        delete static_cast<Foreign*>(m->manager_ctx);
        g_dl_deletes.fetch_add(1);
    };
    H x;
    ok(ct_from_dlpack(&f->managed, x.out()));
    ok(ct_tensor_set_requires_grad(x.get(), 1));
    return x;
}

struct TripleCtx {
    int* released;
};
// Backward of r = 3 x: grad_x = 3 grad_r (recorded when backward runs with create_graph).
ct_status triple_backward(void*, const ct_tensor* go, int32_t, ct_tensor* gi, int32_t) {
    ct_tensor three = nullptr;
    ct_status st = ct_scalar_tensor(3.0, CT_FLOAT64, ct_cpu(), &three);
    if (st != CT_OK) return st;
    st = ct_mul(go[0], three, &gi[0]);
    ct_tensor_release(three);
    return st;
}
void triple_release(void* ctx) {
    auto* c = static_cast<TripleCtx*>(ctx);
    *c->released += 1;
    delete c;
}

// r = Triple(x) (a custom function), loss = sum(r * r) = 9 sum(x^2); d loss / dx = 18 x.
H triple_loss(const H& x, int* released) {
    H three = make({3.0}, {}), r0, r, rr, loss;
    int32_t prev = 0;
    ok(ct_set_grad_enabled(0, &prev));
    ok(ct_mul(x.get(), three.get(), r0.out()));
    ok(ct_set_grad_enabled(prev, nullptr));
    ct_tensor xin = x.get(), rout = r0.get();
    ok(ct_custom_function_apply("TripleBackward", &xin, 1, &rout, 1, triple_backward, new TripleCtx{released},
                                triple_release, r.out()));
    ok(ct_mul(r.get(), r.get(), rr.out()));
    ok(ct_sum(rr.get(), nullptr, 0, 0, loss.out()));
    return loss;
}

H grad(const H& t) {
    H g;
    ok(ct_tensor_grad(t.get(), g.out()));
    return g;
}

}  // namespace

TEST(HardeningAutograd, CreateGraphBackwardThenReleasingEverythingFreesTheGraph) {
    int64_t baseline = ct_live_handles();
    int deletes = g_dl_deletes.load(), released = 0;
    {
        H x = foreign_x();
        H loss = triple_loss(x, &released);
        CT_ASSERT_OK(ct_backward(loss.get(), nullptr, 0, 1));
        H g = grad(x);
        EXPECT_TRUE(allclose(g, {18, 36, 54}));
        int32_t leaf = 1;
        CT_ASSERT_OK(ct_tensor_is_leaf(g.get(), &leaf));
        EXPECT_EQ(leaf, 0) << "create_graph gives x.grad a history";
    }
    EXPECT_EQ(released, 1) << "the custom function's context was never released (grad <-> graph cycle)";
    EXPECT_EQ(g_dl_deletes.load(), deletes + 1) << "the DLPack deleter of x never ran (grad <-> graph cycle)";
    EXPECT_EQ(ct_live_handles(), baseline);
}

TEST(HardeningAutograd, KeptGradUsedForSecondBackwardThenReleasedFreesTheGraph) {
    int64_t baseline = ct_live_handles();
    int deletes = g_dl_deletes.load(), released = 0;
    {
        H x = foreign_x();
        H g;
        {
            H loss = triple_loss(x, &released);
            CT_ASSERT_OK(ct_backward(loss.get(), nullptr, 0, 1));
            g = grad(x);
        }
        // second backward through the kept gradient: d/dx sum((18 x)^2) = 648 x, accumulated into x.grad
        H gg, s;
        CT_ASSERT_OK(ct_mul(g.get(), g.get(), gg.out()));
        CT_ASSERT_OK(ct_sum(gg.get(), nullptr, 0, 0, s.out()));
        CT_ASSERT_OK(ct_backward(s.get(), nullptr, 1, 0));  // keeps g's graph for the backward below
        EXPECT_TRUE(allclose(grad(x), {666, 1332, 1998}));
        x = H();  // the leaf goes first; the kept gradient and its graph still work
        EXPECT_EQ(released, 0);
        H s2;
        CT_ASSERT_OK(ct_sum(g.get(), nullptr, 0, 0, s2.out()));
        CT_EXPECT_OK(ct_backward(s2.get(), nullptr, 0, 0));
    }
    EXPECT_EQ(released, 1);
    EXPECT_EQ(g_dl_deletes.load(), deletes + 1);
    EXPECT_EQ(ct_live_handles(), baseline);
}

TEST(HardeningAutograd, CreateGraphBackwardIntoAReleasedLeafLeavesNoCycle) {
    int64_t baseline = ct_live_handles();
    int deletes = g_dl_deletes.load(), released = 0;
    {
        H loss;
        {
            H x = foreign_x();
            loss = triple_loss(x, &released);
        }
        CT_ASSERT_OK(ct_backward(loss.get(), nullptr, 0, 1));  // accumulates into x, which no handle holds
    }
    EXPECT_EQ(released, 1);
    EXPECT_EQ(g_dl_deletes.load(), deletes + 1);
    EXPECT_EQ(ct_live_handles(), baseline);
}

TEST(HardeningAutograd, DoubleBackwardThroughGradStillWorks) {
    int64_t baseline = ct_live_handles();
    {
        H x = make({1, 2, 3}, {3}, CT_FLOAT64, true), x2, x3, loss;
        CT_ASSERT_OK(ct_mul(x.get(), x.get(), x2.out()));
        CT_ASSERT_OK(ct_mul(x2.get(), x.get(), x3.out()));
        CT_ASSERT_OK(ct_sum(x3.get(), nullptr, 0, 0, loss.out()));
        CT_ASSERT_OK(ct_backward(loss.get(), nullptr, 0, 1));
        H g = grad(x), gs;
        EXPECT_TRUE(allclose(g, {3, 12, 27}));
        g = H();  // x still holds its gradient with history
        CT_ASSERT_OK(ct_sum(grad(x).get(), nullptr, 0, 0, gs.out()));
        CT_ASSERT_OK(ct_backward(gs.get(), nullptr, 0, 0));
        EXPECT_TRUE(allclose(grad(x), {3 + 6, 12 + 12, 27 + 18}));  // 3 x^2 + 6 x
    }
    EXPECT_EQ(ct_live_handles(), baseline);
}
