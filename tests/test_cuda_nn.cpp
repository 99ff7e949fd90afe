// test_cuda_nn.cpp - softmax, log_softmax and the losses on CUDA against the CPU (row kernels; the emulated
// backend runs them with one thread per row), forward and backward, on odd sizes, strided, 0-d and empty inputs.
#include "cuda_compare.h"

using namespace ctt;

namespace {

Fn softmax_fn(int64_t dim, bool log_) {
    return [=](const std::vector<H>& x) {
        H o;
        ok(log_ ? ct_log_softmax(x[0].get(), dim, o.out()) : ct_softmax(x[0].get(), dim, o.out()));
        return o;
    };
}

using LossFn = ct_status (*)(ct_tensor, ct_tensor, int32_t, ct_tensor*);
Fn loss_fn(LossFn f, int32_t reduction) {
    return [=](const std::vector<H>& x) {
        H o;
        ok(f(x[0].get(), x[1].get(), reduction, o.out()));
        return o;
    };
}

Fn class_loss_fn(bool ce, int32_t reduction, int64_t ignore = -100) {
    return [=](const std::vector<H>& x) {
        H o;
        ok(ce ? ct_cross_entropy(x[0].get(), x[1].get(), reduction, ignore, o.out())
              : ct_nll_loss(x[0].get(), x[1].get(), reduction, ignore, o.out()));
        return o;
    };
}

const int32_t kReductions[] = {CT_REDUCTION_NONE, CT_REDUCTION_MEAN, CT_REDUCTION_SUM};

}  // namespace

TEST(CudaGpu, SoftmaxMatchesCpu) {
    REQUIRE_CUDA();
    for (bool log_ : {false, true}) {
        SCOPED_TRACE(log_ ? "log_softmax" : "softmax");
        for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64}) {
            compare_on_cuda("last dim, odd size", softmax_fn(-1, log_), {sample({3, 37}, dt, 1)}, {}, {}, 1e-5);
            compare_on_cuda("middle dim", softmax_fn(1, log_), {sample({2, 5, 3}, dt, 2)}, {}, {}, 1e-5);
            compare_on_cuda("first dim", softmax_fn(0, log_), {sample({4, 6}, dt, 3)}, {}, {}, 1e-5);
            compare_on_cuda("0-d", softmax_fn(0, log_), {sample({}, dt, 4)});
            compare_on_cuda("empty", softmax_fn(1, log_), {sample({0, 4}, dt, 5)});
            compare_on_cuda("transposed", softmax_fn(-1, log_), {sample({5, 3}, dt, 6)}, {}, {transposed}, 1e-5);
        }
        compare_on_cuda("grad last dim", softmax_fn(-1, log_), {randt({3, 7}, 7, false)}, {true});
        compare_on_cuda("grad middle dim", softmax_fn(1, log_), {randt({2, 5, 3}, 8, false)}, {true});
        compare_on_cuda("grad of a strided view", softmax_fn(0, log_), {randt({4, 6}, 9, false)}, {true},
                        {every_other_column});
    }
    H big = make({1000, 0, -1000, NAN}, {2, 2}), y;
    CT_ASSERT_OK(ct_softmax(on(big, ct_cuda(0)).get(), 1, y.out()));  // stable for large logits; NaN propagates
    std::vector<double> v = values(y);
    EXPECT_EQ(v[0], 1.0);
    EXPECT_EQ(v[1], 0.0);
    EXPECT_TRUE(std::isnan(v[2]) && std::isnan(v[3]));
    H i = on(make({1, 2}, {2}, CT_INT64), ct_cuda(0));
    CT_EXPECT_ERR(ct_softmax(i.get(), 0, y.out()), CT_ERR_DTYPE, "softmax");
    CT_EXPECT_ERR(ct_softmax(on(big, ct_cuda(0)).get(), 2, y.out()), CT_ERR_INDEX, "softmax");
}

TEST(CudaGpu, ClassLossesMatchCpu) {
    REQUIRE_CUDA();
    H tgt = make({2, 0, 4, 1, 2}, {5}, CT_INT64), tgt_ignored = make({2, -100, 4, -100, 0}, {5}, CT_INT64);
    for (bool ce : {true, false})
        for (int32_t r : kReductions) {
            SCOPED_TRACE(std::string(ce ? "cross_entropy" : "nll_loss") + " reduction " + std::to_string(r));
            for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64})
                compare_on_cuda("values", class_loss_fn(ce, r), {sample({5, 6}, dt, 1), tgt}, {}, {}, 1e-5);
            compare_on_cuda("grads", class_loss_fn(ce, r), {randt({5, 6}, 2, false), tgt}, {true, false});
            compare_on_cuda("ignored rows", class_loss_fn(ce, r), {randt({5, 6}, 3, false), tgt_ignored},
                            {true, false});
            compare_on_cuda("ignore a real class", class_loss_fn(ce, r, 2), {randt({5, 6}, 4, false), tgt},
                            {true, false});
            compare_on_cuda("[C] input", class_loss_fn(ce, r), {randt({6}, 5, false), make({3}, {}, CT_INT64)},
                            {true, false});
            compare_on_cuda("int32 targets, strided", class_loss_fn(ce, r),
                            {randt({6, 5}, 6, false), make({2, 0, 4, 1, 2}, {5}, CT_INT32)}, {true, false},
                            {transposed, same});
            compare_on_cuda("empty batch", class_loss_fn(ce, r), {randt({0, 6}, 7, false), make({}, {0}, CT_INT64)});
        }
    H x = on(randt({2, 3}, 8, false), ct_cuda(0)), bad = on(make({1, 3}, {2}, CT_INT64), ct_cuda(0)), o;
    CT_EXPECT_ERR(ct_cross_entropy(x.get(), bad.get(), CT_REDUCTION_MEAN, -100, o.out()), CT_ERR_INDEX,
                  "target 3 is out of bounds for 3 classes");
    CT_EXPECT_ERR(ct_nll_loss(x.get(), make({1, 2}, {2}, CT_INT64).get(), CT_REDUCTION_MEAN, -100, o.out()),
                  CT_ERR_DEVICE, "cuda:0 and cpu");
}

TEST(CudaGpu, ElementwiseLossesMatchCpu) {
    REQUIRE_CUDA();
    struct L {
        const char* name;
        LossFn f;
        double lo, hi;  // input range (probabilities for binary_cross_entropy)
    } losses[] = {{"mse", ct_mse_loss, -2, 2}, {"bce", ct_binary_cross_entropy, 0.05, 0.95},
                  {"bce_with_logits", ct_binary_cross_entropy_with_logits, -4, 4}};
    for (auto& l : losses)
        for (int32_t r : kReductions) {
            SCOPED_TRACE(std::string(l.name) + " reduction " + std::to_string(r));
            H t = randt({3, 7}, 11, false, 0.0, 1.0);
            for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64}) {
                H x, tc;
                ok(ct_to_dtype(randt({3, 7}, 10, false, l.lo, l.hi).get(), dt, x.out()));
                ok(ct_to_dtype(t.get(), dt, tc.out()));
                compare_on_cuda("values", loss_fn(l.f, r), {x, tc}, {}, {}, 1e-5);
            }
            compare_on_cuda("grads", loss_fn(l.f, r), {randt({3, 7}, 12, false, l.lo, l.hi), t}, {true, true});
            compare_on_cuda("transposed", loss_fn(l.f, r), {randt({7, 3}, 13, false, l.lo, l.hi), t}, {true, true},
                            {transposed, same});
            compare_on_cuda("0-d", loss_fn(l.f, r), {randt({}, 14, false, l.lo, l.hi), randt({}, 15, false, 0, 1)},
                            {true, true});
            compare_on_cuda("empty", loss_fn(l.f, r), {randt({0, 3}, 16, false), randt({0, 3}, 17, false)});
        }
    H p = on(make({0.5, 1.5}, {2}), ct_cuda(0)), t = on(make({0, 1}, {2}), ct_cuda(0)), o;
    CT_EXPECT_ERR(ct_binary_cross_entropy(p.get(), t.get(), CT_REDUCTION_MEAN, o.out()), CT_ERR_INVALID_ARGUMENT,
                  "must be in [0, 1], got 1.5");
    H edge = on(make({0, 1}, {2}), ct_cuda(0));  // log clamped at -100: finite
    CT_ASSERT_OK(ct_binary_cross_entropy(edge.get(), on(make({1, 0}, {2}), ct_cuda(0)).get(), CT_REDUCTION_SUM, o.out()));
    EXPECT_TRUE(allclose(o, {200.0}));
}

TEST(CudaGpu, TrainingStepOnCudaMatchesCpu) {
    REQUIRE_CUDA();
    // linear -> log_softmax -> nll_loss, the path of a classifier
    Fn model = [](const std::vector<H>& x) {
        H h, lp, loss;
        ok(ct_linear(x[0].get(), x[1].get(), x[2].get(), h.out()));
        ok(ct_log_softmax(h.get(), 1, lp.out()));
        ok(ct_nll_loss(lp.get(), x[3].get(), CT_REDUCTION_MEAN, -100, loss.out()));
        return loss;
    };
    compare_on_cuda("classifier", model,
                    {randt({8, 5}, 1, false), randt({4, 5}, 2, false), randt({4}, 3, false),
                     make({0, 3, 1, 2, 2, 0, 3, 1}, {8}, CT_INT64)},
                    {false, true, true, false});
}
