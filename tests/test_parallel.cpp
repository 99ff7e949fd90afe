// test_parallel.cpp - the thread pool and pooled gemm seen through the C ABI: matmul split into row or column
// slices against a naive loop for several thread counts, run-to-run reproducible results, ops from
// many threads at once, nested use (matmul/linear backward inside parallel code) and allocator reuse.
#include <atomic>
#include <thread>
#include "ct_test.h"

using namespace ctt;

namespace {

// a[m, k] @ b[k, n] by definition (row-major values).
std::vector<double> naive_mm(const std::vector<double>& a, const std::vector<double>& b, int64_t m, int64_t k,
                             int64_t n) {
    std::vector<double> c((size_t)(m * n), 0.0);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t p = 0; p < k; ++p)
            for (int64_t j = 0; j < n; ++j) c[(size_t)(i * n + j)] += a[(size_t)(i * k + p)] * b[(size_t)(p * n + j)];
    return c;
}

// Restores the thread count on scope exit.
struct ThreadCountScope {
    int32_t saved = ct_get_num_threads();
    ~ThreadCountScope() { ct_set_num_threads(saved); }
};

H transposed(const H& t) {
    H r;
    ok(ct_transpose(t.get(), 0, 1, r.out()));
    return r;
}

}  // namespace

TEST(ParallelGemm, SlicesMatchNaiveForEveryThreadCount) {
    ThreadCountScope restore;
    // (m, k, n): row split (m >= n), column split (n > m), ragged slice edges, and a size below the cut.
    const int64_t cases[][3] = {{300, 70, 129}, {33, 90, 517}, {257, 64, 255}, {8, 8, 8}, {16, 2000, 17}};
    for (auto& c : cases) {
        int64_t m = c[0], k = c[1], n = c[2];
        std::vector<double> av = rand_values((size_t)(m * k), 1 + m), bv = rand_values((size_t)(k * n), 2 + n);
        std::vector<double> expect = naive_mm(av, bv, m, k, n);
        for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
            H a = make(av, {m, k}, dt), b = make(bv, {k, n}, dt);
            // the same operands stored transposed (BLAS gets trans flags and leading dimensions instead)
            std::vector<double> at((size_t)(m * k)), bt((size_t)(k * n));
            for (int64_t i = 0; i < m; ++i)
                for (int64_t p = 0; p < k; ++p) at[(size_t)(p * m + i)] = av[(size_t)(i * k + p)];
            for (int64_t p = 0; p < k; ++p)
                for (int64_t j = 0; j < n; ++j) bt[(size_t)(j * k + p)] = bv[(size_t)(p * n + j)];
            H a_t = transposed(make(at, {k, m}, dt)), b_t = transposed(make(bt, {n, k}, dt));
            double tol = dt == CT_FLOAT64 ? 1e-12 : 2e-4 * std::sqrt((double)k);
            for (int32_t threads : {1, 2, 3, 4}) {
                CT_ASSERT_OK(ct_set_num_threads(threads));
                H r, rt, again;
                CT_ASSERT_OK(ct_matmul(a.get(), b.get(), r.out()));
                CT_ASSERT_OK(ct_matmul(a.get(), b.get(), again.out()));
                CT_ASSERT_OK(ct_matmul(a_t.get(), b_t.get(), rt.out()));
                EXPECT_EQ(shape(r), (Shape{m, n}));
                EXPECT_TRUE(allclose(r, expect, tol, tol)) << m << "x" << k << "x" << n << " threads " << threads;
                EXPECT_TRUE(allclose(rt, expect, tol, tol)) << m << "x" << k << "x" << n << " threads " << threads;
                // slices are fixed by the shape and thread count: repeated calls agree bit for bit (different
                // thread counts may differ in the last bits, as OpenBLAS's own threading does)
                EXPECT_TRUE(values(r) == values(again)) << "run-to-run difference with " << threads << " threads";
            }
        }
    }
}

TEST(ParallelPool, ManyCallerThreadsAtOnce) {
    ThreadCountScope restore;
    CT_ASSERT_OK(ct_set_num_threads(2));
    const int64_t n = 200000, m = 96;
    H x = randt({n}, 5, false), y = randt({n}, 6, false), a = randt({m, m}, 7, false);
    H ref_sum, ref_mm, xy;
    CT_ASSERT_OK(ct_add(x.get(), y.get(), 2.0, xy.out()));
    CT_ASSERT_OK(ct_sum(xy.get(), nullptr, 0, 0, ref_sum.out()));
    CT_ASSERT_OK(ct_matmul(a.get(), a.get(), ref_mm.out()));
    const double expect_sum = scalar(ref_sum);
    const std::vector<double> expect_mm = values(ref_mm);
    std::atomic<int> failures{0};
    std::vector<std::thread> callers;
    for (int t = 0; t < 4; ++t)
        callers.emplace_back([&] {
            for (int it = 0; it < 20; ++it) {
                ct_tensor s = nullptr, mm = nullptr, sum = nullptr;
                bool good = ct_add(x.get(), y.get(), 2.0, &s) == CT_OK && ct_sum(s, nullptr, 0, 0, &sum) == CT_OK &&
                            ct_matmul(a.get(), a.get(), &mm) == CT_OK;
                H hs(s), hsum(sum), hmm(mm);
                if (!good || std::abs(scalar(hsum) - expect_sum) > 1e-9 * n || values(hmm) != expect_mm) ++failures;
            }
        });
    for (auto& c : callers) c.join();
    EXPECT_EQ(failures.load(), 0);
}

TEST(ParallelPool, MoreThreadsThanCoresAndBackward) {
    ThreadCountScope restore;
    CT_ASSERT_OK(ct_set_num_threads(7));
    EXPECT_EQ(ct_get_num_threads(), 7);
    // linear forward and backward run gemms and parallel loops back to back on the pool
    EXPECT_TRUE(gradcheck(
        [](const std::vector<H>& in) {
            H r;
            ok(ct_matmul(in[0].get(), in[1].get(), r.out()));
            return r;
        },
        {randt({40, 30}, 8), randt({30, 50}, 9)}));
    CT_EXPECT_ERR(ct_set_num_threads(0), CT_ERR_INVALID_ARGUMENT, "thread count must be >= 1");
}

TEST(Allocator, BlocksOfEverySizeClassAreDistinctAndReused) {
    // Many live tensors of sizes across the small classes and the large cache; each keeps its own value
    // through two rounds of free and reallocation (a block handed out twice would be overwritten).
    for (int round = 0; round < 2; ++round) {
        std::vector<H> live;
        std::vector<int64_t> sizes;
        for (int64_t n = 1; n < 600000; n = n * 3 / 2 + 1) sizes.push_back(n);
        for (size_t i = 0; i < sizes.size(); ++i) {
            int64_t shp[1] = {sizes[i]};
            H t;
            CT_ASSERT_OK(ct_full(shp, 1, (double)i + round, CT_FLOAT32, ct_cpu(), t.out()));
            live.push_back(std::move(t));
        }
        for (size_t i = 0; i < live.size(); ++i) {
            std::vector<double> v = values(live[i]);
            ASSERT_EQ((int64_t)v.size(), sizes[i]);
            EXPECT_EQ(v.front(), (double)i + round);
            EXPECT_EQ(v.back(), (double)i + round);
        }
    }
}

TEST(ParallelPool, EveryChunkRunsExactlyOnceForManyThreads) {
    // Jobs of up to 32 chunks are claimed through a bit mask (each thread first takes its own chunk), larger
    // ones through a counter: acc += threads * i, split into as many chunks as threads (up to 64 on 2 cores),
    // must give every element exactly reps * threads * i. (Values differ per element, repetition and thread count, so a
    // skipped chunk cannot pass by reading a reused buffer's old contents.)
    ThreadCountScope restore;
    const int64_t n = 64 * 65536;  // >= 2 * grain per chunk for every thread count below
    const int64_t shape[] = {n};
    H index;
    CT_ASSERT_OK(ct_arange(0.0, (double)n, 1.0, CT_FLOAT64, ct_cpu(), index.out()));
    for (int32_t threads : {2, 3, 31, 32, 33, 40, 64}) {
        CT_ASSERT_OK(ct_set_num_threads(threads));
        H acc;
        CT_ASSERT_OK(ct_zeros(shape, 1, CT_FLOAT64, ct_cpu(), acc.out()));
        const int reps = 3;
        for (int rep = 0; rep < reps; ++rep) CT_ASSERT_OK(ct_add_(acc.get(), index.get(), (double)threads));
        std::vector<double> v = values(acc);
        int64_t wrong = 0;
        for (int64_t i = 0; i < n; ++i) wrong += v[(size_t)i] != (double)(reps * threads) * (double)i;
        EXPECT_EQ(wrong, 0) << "elements not updated exactly " << reps << " times with " << threads << " threads";
    }
}
