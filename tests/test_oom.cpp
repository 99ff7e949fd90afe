// test_oom.cpp - out-of-memory behaviour under the CPU memory limit (ct_set_cpu_memory_limit): every op, backward
// and optimizer step is run under limits that grow from "nothing more may be allocated" until it succeeds. Each
// failing run must return CT_ERR_OUT_OF_MEMORY with a message, leave its out-parameter, its inputs, the live-handle
// count and the autograd graph as they were; the run that succeeds must give the unlimited result.
#include <cmath>
#include "ct_test.h"

using namespace ctt;

namespace {

// Sets the limit to in-use bytes + extra for its lifetime (restores "no limit" after).
class Limit {
  public:
    explicit Limit(int64_t extra) {
        int64_t in_use = 0;
        ok(ct_cpu_memory_stats(&in_use, nullptr, nullptr));
        ok(ct_set_cpu_memory_limit(in_use + extra));
    }
    ~Limit() { ct_set_cpu_memory_limit(-1); }
};

// A fake handle that no call may write over when it fails.
ct_tensor untouched() { return reinterpret_cast<ct_tensor>(uintptr_t(0x5a5a5a5a)); }

using Op = std::function<ct_status(ct_tensor*)>;

// Runs op under growing limits (64-byte steps) until it succeeds; checks every failure (see the file comment) and
// that the result equals the unlimited one. Returns the number of failed runs (> 0: the limit was really hit).
int sweep(const char* name, const Op& op, const std::vector<H>& inputs) {
    H expected;
    ok(op(expected.out()));
    std::vector<std::vector<double>> before;
    for (const H& in : inputs) before.push_back(values(in));
    int failures = 0;
    for (int64_t extra = 0; extra <= (int64_t(1) << 22); extra += 64) {
        int64_t live = ct_live_handles();
        ct_tensor out = untouched();
        ct_status st;
        std::string message;
        {
            Limit limit(extra);
            st = op(&out);
            message = ct_last_error();
        }
        if (st == CT_OK) {
            H got(out);
            EXPECT_EQ(shape(got), shape(expected)) << name;
            EXPECT_EQ(values(got), values(expected)) << name;
            return failures;
        }
        ++failures;
        EXPECT_EQ(st, CT_ERR_OUT_OF_MEMORY) << name << " with " << extra << " bytes free: " << message;
        EXPECT_NE(message.find("memory limit"), std::string::npos) << name << ": " << message;
        EXPECT_EQ(out, untouched()) << name << ": out-parameter written on failure";
        EXPECT_EQ(ct_live_handles(), live) << name << ": handles leaked on failure";
        for (size_t i = 0; i < inputs.size(); ++i) EXPECT_EQ(values(inputs[i]), before[i]) << name << " input " << i;
        if (::testing::Test::HasFailure()) return failures;
    }
    ADD_FAILURE() << name << " never succeeded under a 4 MiB margin";
    return failures;
}

}  // namespace

TEST(Oom, LimitIsReportedAndValidated) {
    int64_t allocated = -2, cached = -2, limit = -2;
    CT_ASSERT_OK(ct_cpu_memory_stats(&allocated, &cached, &limit));
    EXPECT_GE(allocated, 0);
    EXPECT_GE(cached, 0);
    EXPECT_EQ(limit, -1);
    CT_EXPECT_ERR(ct_set_cpu_memory_limit(-5), CT_ERR_INVALID_ARGUMENT, "set_cpu_memory_limit");
    CT_ASSERT_OK(ct_cpu_memory_stats(nullptr, nullptr, &limit));
    EXPECT_EQ(limit, -1);

    H x = randt({64, 64}, 1, false);
    int64_t with_x = 0;
    CT_ASSERT_OK(ct_cpu_memory_stats(&with_x, nullptr, nullptr));
    {
        Limit l(0);
        H y;
        CT_EXPECT_ERR(ct_add(x.get(), x.get(), 1.0, y.out()), CT_ERR_OUT_OF_MEMORY, "add");
        int64_t shape[1] = {int64_t(1) << 40};
        CT_EXPECT_ERR(ct_zeros(shape, 1, CT_FLOAT32, ct_cpu(), y.out()), CT_ERR_OUT_OF_MEMORY, "memory limit");
    }
    H y;
    CT_EXPECT_OK(ct_add(x.get(), x.get(), 1.0, y.out()));  // the next call succeeds once the limit is lifted
    int64_t with_y = 0;
    CT_ASSERT_OK(ct_cpu_memory_stats(&with_y, nullptr, nullptr));
    EXPECT_GE(with_y - with_x, 64 * 64 * 8);
    y = H();
    CT_ASSERT_OK(ct_cpu_memory_stats(&allocated, nullptr, nullptr));
    EXPECT_EQ(allocated, with_x);  // freeing gives the bytes back
}

TEST(Oom, EveryOpFailsCleanlyAndRecovers) {
    H a = randt({3, 17}, 2, false), b = randt({17, 5}, 3, false), c = randt({3, 17}, 4, false);
    H img = randt({2, 3, 9, 9}, 5, false), w = randt({4, 3, 3, 3}, 6, false), bias = randt({4}, 7, false);
    H idx = make({2, 0, 1, 2}, {4}, CT_INT64), target = make({1, 0, 4}, {3}, CT_INT64);
    int64_t one = 1, st2[2] = {1, 1}, pad2[2] = {1, 1}, dil2[2] = {1, 1}, k2[2] = {2, 2}, no_pad[2] = {0, 0};
    ct_tensor pair[2] = {a.get(), c.get()};
    std::vector<std::pair<const char*, Op>> ops = {
        {"add", [&](ct_tensor* o) { return ct_add(a.get(), c.get(), 2.0, o); }},
        {"mul", [&](ct_tensor* o) { return ct_mul(a.get(), c.get(), o); }},
        {"exp", [&](ct_tensor* o) { return ct_exp(a.get(), o); }},
        {"matmul", [&](ct_tensor* o) { return ct_matmul(a.get(), b.get(), o); }},
        {"sum", [&](ct_tensor* o) { return ct_sum(a.get(), &one, 1, 0, o); }},
        {"var", [&](ct_tensor* o) { return ct_var(a.get(), &one, 1, 1.0, 1, o); }},
        {"softmax", [&](ct_tensor* o) { return ct_softmax(a.get(), 1, o); }},
        {"cumsum", [&](ct_tensor* o) { return ct_cumsum(a.get(), 1, o); }},
        {"contiguous", [&](ct_tensor* o) {
             H t;
             ct_status s = ct_transpose(a.get(), 0, 1, t.out());
             return s != CT_OK ? s : ct_contiguous(t.get(), o);
         }},
        {"to_dtype", [&](ct_tensor* o) { return ct_to_dtype(a.get(), CT_FLOAT32, o); }},
        {"cat", [&](ct_tensor* o) { return ct_cat(pair, 2, 0, o); }},
        {"index_select", [&](ct_tensor* o) { return ct_index_select(a.get(), 0, idx.get(), o); }},
        {"sort", [&](ct_tensor* o) {
             H i;
             return ct_sort(a.get(), 1, 0, 1, o, i.out());
         }},
        {"linear", [&](ct_tensor* o) { return ct_linear(a.get(), c.get(), nullptr, o); }},
        {"cross_entropy", [&](ct_tensor* o) { return ct_cross_entropy(a.get(), target.get(), CT_REDUCTION_MEAN, -100, o); }},
        {"conv2d", [&](ct_tensor* o) { return ct_conv2d(img.get(), w.get(), bias.get(), st2, pad2, dil2, 1, o); }},
        {"max_pool2d", [&](ct_tensor* o) { return ct_max_pool2d(img.get(), k2, k2, no_pad, o); }},
        {"einsum", [&](ct_tensor* o) {
             ct_tensor ab[2] = {a.get(), b.get()};
             return ct_einsum("ij,jk->ik", ab, 2, o);
         }},
        {"embedding", [&](ct_tensor* o) { return ct_embedding(b.get(), idx.get(), o); }},
    };
    for (auto& [name, op] : ops) {
        SCOPED_TRACE(name);
        EXPECT_GT(sweep(name, op, {a, b, c, img, w}), 0) << name << " allocated nothing under the limit";
        if (HasFailure()) return;
    }
}

// backward under the limit: a failed backward leaves the graph and the leaves' .grad as they were, so the same
// backward succeeds once memory is there, with the unlimited gradients.
TEST(Oom, BackwardFailsCleanlyAndTheGraphStaysUsable) {
    auto build = [](H& x, H& w, H& loss) {
        x = randt({4, 6}, 11, true);
        w = randt({3, 6}, 12, true);
        H y, r, s;
        ok(ct_linear(x.get(), w.get(), nullptr, y.out()));
        ok(ct_tanh(y.get(), r.out()));
        ok(ct_mul(r.get(), r.get(), s.out()));
        ok(ct_sum(s.get(), nullptr, 0, 0, loss.out()));
    };
    H x0, w0, loss0, gx0, gw0;
    build(x0, w0, loss0);
    CT_ASSERT_OK(ct_backward(loss0.get(), nullptr, 0, 0));
    CT_ASSERT_OK(ct_tensor_grad(x0.get(), gx0.out()));
    CT_ASSERT_OK(ct_tensor_grad(w0.get(), gw0.out()));

    H x, w, loss;
    build(x, w, loss);
    int failures = 0;
    for (int64_t extra = 0;; extra += 64) {
        ASSERT_LT(extra, int64_t(1) << 20) << "backward never succeeded";
        int64_t live = ct_live_handles();
        ct_status st;
        {
            Limit l(extra);
            st = ct_backward(loss.get(), nullptr, 0, 0);
        }
        if (st == CT_OK) break;
        ++failures;
        ASSERT_EQ(st, CT_ERR_OUT_OF_MEMORY) << ct_last_error();
        EXPECT_EQ(ct_live_handles(), live);
        H g;
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_FALSE(g) << "x.grad set by a failed backward (extra " << extra << ")";
        CT_ASSERT_OK(ct_tensor_grad(w.get(), g.out()));
        EXPECT_FALSE(g) << "w.grad set by a failed backward (extra " << extra << ")";
        if (HasFailure()) return;
    }
    EXPECT_GT(failures, 0);
    H gx, gw;
    CT_ASSERT_OK(ct_tensor_grad(x.get(), gx.out()));
    CT_ASSERT_OK(ct_tensor_grad(w.get(), gw.out()));
    EXPECT_EQ(values(gx), values(gx0));
    EXPECT_EQ(values(gw), values(gw0));
}

// An optimizer step that runs out of memory leaves every parameter and its state as it was.
TEST(Oom, OptimizerStepIsAllOrNothing) {
    for (int kind = 0; kind < 2; ++kind) {
        SCOPED_TRACE(kind == 0 ? "sgd" : "adam");
        H p = randt({8, 8}, 21, true), q = randt({8}, 22, true);
        H g1 = randt({8, 8}, 23, false), g2 = randt({8}, 24, false);
        CT_ASSERT_OK(ct_tensor_set_grad(p.get(), g1.get()));
        CT_ASSERT_OK(ct_tensor_set_grad(q.get(), g2.get()));
        ct_tensor params[2] = {p.get(), q.get()};
        ct_optimizer opt = nullptr;
        if (kind == 0) CT_ASSERT_OK(ct_optim_sgd_new(params, 2, 0.1, 0.9, 0.0, 0.01, 0, &opt));
        else CT_ASSERT_OK(ct_optim_adam_new(params, 2, 0.1, 0.9, 0.999, 1e-8, 0.01, &opt));
        std::vector<double> p0 = values(p), q0 = values(q);
        int failures = 0;
        for (int64_t extra = 0;; extra += 64) {
            ASSERT_LT(extra, int64_t(1) << 20) << "step never succeeded";
            ct_status st;
            {
                Limit l(extra);
                st = ct_optimizer_step(opt);
            }
            if (st == CT_OK) break;
            ++failures;
            ASSERT_EQ(st, CT_ERR_OUT_OF_MEMORY) << ct_last_error();
            EXPECT_EQ(values(p), p0) << "p changed by a failed step (extra " << extra << ")";
            EXPECT_EQ(values(q), q0) << "q changed by a failed step (extra " << extra << ")";
            if (HasFailure()) break;
        }
        EXPECT_GT(failures, 0);
        EXPECT_NE(values(p), p0);
        ct_optimizer_release(opt);
    }
}
