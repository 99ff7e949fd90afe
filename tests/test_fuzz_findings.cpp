// test_fuzz_findings.cpp - regression tests for the bugs the fuzz targets (tests/fuzz) found, one test each,
// written against the C API as the fuzzer saw them.
#include <cstdlib>
#include "ct_test.h"

using namespace ctt;

namespace {

int g_blob_deletes = 0;
void count_delete(void*, void*) { ++g_blob_deletes; }

// A float32 leaf [n] over caller memory whose deleter counts (a leak keeps it from running).
H tracked_leaf(float* data, int64_t n) {
    H t;
    ok(ct_tensor_from_blob(data, &n, nullptr, 1, CT_FLOAT32, ct_cpu(), count_delete, nullptr, t.out()));
    ok(ct_tensor_set_requires_grad(t.get(), 1));
    return t;
}

}  // namespace

// fuzz_autograd: backward(x, grad_output = x, create_graph) stored x itself as x.grad (x -> grad -> x), a cycle
// that no release could break: x, its memory and its graph leaked.
TEST(FuzzFindings, LeafBackwardWithItselfAsGradOutputLeavesNoCycle) {
    int64_t baseline = ct_live_handles();
    float data[3] = {1, 2, 3};
    int before = g_blob_deletes;
    for (int create = 0; create < 2; ++create) {
        {
            H x = tracked_leaf(data, 3);
            CT_ASSERT_OK(ct_backward(x.get(), x.get(), 0, create));
            H g;
            CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
            EXPECT_EQ(values(g), (std::vector<double>{1, 2, 3}));
        }
        EXPECT_EQ(g_blob_deletes, before + create + 1) << "x was never freed (create_graph " << create << ")";
    }
    EXPECT_EQ(ct_live_handles(), baseline);
}

// Found while reducing the case above: the first backward into a leaf stored the caller's grad_output itself
// (or a view of its memory) as .grad, so the next backward accumulated into the caller's tensor.
TEST(FuzzFindings, AccumulatingGradNeverWritesIntoTheCallersGradOutput) {
    for (int create = 0; create < 2; ++create) {
        H x = make({1, 1}, {2}, CT_FLOAT32, true);
        H go = make({1, 1}, {2}, CT_FLOAT32);
        CT_ASSERT_OK(ct_backward(x.get(), go.get(), 1, create));
        CT_ASSERT_OK(ct_backward(x.get(), go.get(), 1, 0));
        EXPECT_EQ(values(go), (std::vector<double>{1, 1})) << "grad_output changed (create_graph " << create << ")";
        H g;
        CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
        EXPECT_EQ(values(g), (std::vector<double>{2, 2}));
    }
}
