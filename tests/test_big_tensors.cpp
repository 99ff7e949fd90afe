// test_big_tensors.cpp - tensors of more than 2^31 elements (2 GiB of uint8/bool): fill, sum, strided views,
// indexing past 2^31, copies, comparisons and argmax must use int64 index math everywhere, on the CPU and on a
// CUDA device. Run as the ctest "big_tensors"; the CPU cases are skipped (with the reason) when the machine has
// less than ~8 GiB of memory available, the CUDA cases where no CUDA device is usable or it lacks the memory
// (tests/gpu/run_gpu_checks.sh requires them to run).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include "ct_test.h"

using namespace ctt;

namespace {

constexpr int64_t kN = (int64_t(1) << 31) + 5;  // elements: past INT32_MAX and UINT32_MAX / 2
constexpr int64_t kAt = (int64_t(1) << 31) + 3;  // an element whose index does not fit int32
constexpr int64_t kNeedKiB = int64_t(8) << 20;    // 8 GiB: two 2 GiB tensors at a time, with room to spare

int64_t mem_available_kib() {
    std::ifstream f("/proc/meminfo");
    std::string key;
    int64_t v = 0;
    std::string unit;
    while (f >> key >> v >> unit)
        if (key == "MemAvailable:") return v;
    return -1;
}

// The device a parameterised test runs on (the parameter: true for CUDA device 0).
class BigTensors : public ::testing::TestWithParam<bool> {
  protected:
    ct_device dev() const { return GetParam() ? ct_cuda(0) : ct_cpu(); }
};

#define SKIP_UNLESS_MEMORY()                                                                                   \
    do {                                                                                                       \
        if (GetParam()) {                                                                                      \
            if (ct_cuda_device_count() == 0) GTEST_SKIP() << "no usable CUDA device";                         \
            break;                                                                                             \
        }                                                                                                      \
        int64_t avail_ = mem_available_kib();                                                                  \
        if (avail_ < kNeedKiB)                                                                                 \
            GTEST_SKIP() << "big tensors need ~8 GiB of available memory, this machine has " << avail_ / 1024 \
                         << " MiB (MemAvailable in /proc/meminfo)";                                            \
    } while (0)

// x = ones(kN) uint8 on dev with element kAt set to 7 through a one-element view; skips the test when the CUDA
// device has not the memory.
#define BIG_ONES_WITH_MARK(x)                                                                                 \
    do {                                                                                                       \
        ct_status st_ = big_ones_with_mark(dev(), x);                                                          \
        if (st_ == CT_ERR_OUT_OF_MEMORY && GetParam())                                                         \
            GTEST_SKIP() << "the CUDA device cannot hold two 2 GiB tensors: " << ct_last_error();             \
        ASSERT_EQ(st_, CT_OK) << ct_last_error();                                                              \
    } while (0)

int64_t item_i(const H& t) {
    int64_t v = 0;
    ok(ct_tensor_item_int64(t.get(), &v));
    return v;
}

int64_t numel(const H& t) {
    int64_t n = 0;
    ok(ct_tensor_numel(t.get(), &n));
    return n;
}

// Element i of the 1-d tensor t as int64 (through a select view).
int64_t at(const H& t, int64_t i) {
    H e;
    ok(ct_select(t.get(), 0, i, e.out()));
    return item_i(e);
}

int64_t sum_all(const H& t) {
    H s;
    ok(ct_sum(t.get(), nullptr, 0, 0, s.out()));
    return item_i(s);
}

int64_t argmax_all(const H& t) {
    H a;
    ok(ct_argmax_all(t.get(), a.out()));
    return item_i(a);
}

struct Timer {
    const char* what;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    ~Timer() {
        printf("[ big      ] %s: %.2f s\n", what,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
};

ct_status big_ones_with_mark(ct_device dev, H& x) {
    H mark;
    ct_status st = ct_ones(&kN, 1, CT_UINT8, dev, x.out());
    if (st != CT_OK) return st;
    ok(ct_narrow(x.get(), 0, kAt, 1, mark.out()));
    return ct_fill_(mark.get(), 7);
}

}  // namespace

TEST_P(BigTensors, FillSumIndexArgmax) {
    SKIP_UNLESS_MEMORY();
    int64_t live0 = ct_live_handles();
    {
        Timer t{"2^31+5 uint8: fill, sum, index, argmax"};
        H x;
        BIG_ONES_WITH_MARK(x);
        EXPECT_EQ(numel(x), kN);
        EXPECT_EQ(at(x, kAt), 7);
        EXPECT_EQ(at(x, kN - 1), 1);
        EXPECT_EQ(at(x, -1), 1);
        EXPECT_EQ(sum_all(x), kN + 6);
        EXPECT_EQ(argmax_all(x), kAt);
        H host_idx = make({(double)kAt, 0.0, (double)(kN - 1)}, {3}, CT_INT64), idx, picked;
        ok(ct_to_device(host_idx.get(), dev(), idx.out()));
        CT_ASSERT_OK(ct_index_select(x.get(), 0, idx.get(), picked.out()));
        EXPECT_TRUE(allclose(picked, {7, 1, 1}));
        // out of range by one past the end, with an index that does not fit int32
        H sel;
        CT_EXPECT_ERR(ct_select(x.get(), 0, kN, sel.out()), CT_ERR_INDEX, "2147483653");
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

TEST_P(BigTensors, StridedViewsAndCopies) {
    SKIP_UNLESS_MEMORY();
    int64_t live0 = ct_live_handles();
    {
        Timer t{"2^31+5 uint8: strided view sum/argmax, clone, contiguous copy of a view"};
        H x;
        BIG_ONES_WITH_MARK(x);
        // odd elements 1, 3, ..., kN - 2: 2^30 + 2 of them, kAt among them (at position (kAt - 1) / 2)
        H odd;
        CT_ASSERT_OK(ct_slice(x.get(), 0, 1, kN, 2, odd.out()));
        EXPECT_EQ(numel(odd), (int64_t(1) << 30) + 2);
        EXPECT_EQ(sum_all(odd), (int64_t(1) << 30) + 2 + 6);
        EXPECT_EQ(argmax_all(odd), (kAt - 1) / 2);
        // a view that starts past 2^31: its offset does not fit int32
        H tail;
        CT_ASSERT_OK(ct_narrow(x.get(), 0, kAt - 1, 3, tail.out()));
        EXPECT_TRUE(allclose(tail, {1, 7, 1}));
        // copy of the whole tensor, then of the strided view
        {
            H c;
            CT_ASSERT_OK(ct_clone(x.get(), c.out()));
            EXPECT_EQ(at(c, kAt), 7);
            EXPECT_EQ(argmax_all(c), kAt);
            CT_ASSERT_OK(ct_fill_(x.get(), 0));  // the copy owns its memory
            EXPECT_EQ(at(c, kAt), 7);
            EXPECT_EQ(sum_all(c), kN + 6);
        }
        EXPECT_EQ(sum_all(x), 0);
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

TEST_P(BigTensors, ComparisonsGiveBigBoolTensors) {
    SKIP_UNLESS_MEMORY();
    int64_t live0 = ct_live_handles();
    {
        Timer t{"2^31+5 uint8 == 7 -> bool: sum, argmax, any/all, where"};
        H x;
        BIG_ONES_WITH_MARK(x);
        H seven, eq;
        CT_ASSERT_OK(ct_scalar_tensor(7, CT_UINT8, dev(), seven.out()));
        CT_ASSERT_OK(ct_eq(x.get(), seven.get(), eq.out()));
        EXPECT_EQ(numel(eq), kN);
        EXPECT_EQ(sum_all(eq), 1);
        EXPECT_EQ(argmax_all(eq), kAt);
        EXPECT_EQ(at(eq, kAt), 1);
        EXPECT_EQ(at(eq, kAt + 1), 0);
        H any, all;
        CT_ASSERT_OK(ct_any(eq.get(), nullptr, 0, 0, any.out()));
        CT_ASSERT_OK(ct_all(eq.get(), nullptr, 0, 0, all.out()));
        EXPECT_EQ(item_i(any), 1);
        EXPECT_EQ(item_i(all), 0);
        x = H();  // keep at most two 2 GiB tensors alive
        H zero, one, w;
        CT_ASSERT_OK(ct_scalar_tensor(0, CT_UINT8, dev(), zero.out()));
        CT_ASSERT_OK(ct_scalar_tensor(3, CT_UINT8, dev(), one.out()));
        CT_ASSERT_OK(ct_where(eq.get(), one.get(), zero.get(), w.out()));
        EXPECT_EQ(sum_all(w), 3);
        EXPECT_EQ(argmax_all(w), kAt);
    }
    EXPECT_EQ(ct_live_handles(), live0);
}

INSTANTIATE_TEST_SUITE_P(Devices, BigTensors, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) { return info.param ? "cuda" : "cpu"; });
