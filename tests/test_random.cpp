// test_random.cpp - generators and random tensors: a Philox known answer, reproducibility from seeds,
// statistics of 1e5 samples, handle lifetime, independence from the thread count, concurrent use.
#include <algorithm>
#include <map>
#include <numeric>
#include <thread>
#include "ct_test.h"

using namespace ctt;

namespace {

// Owns one generator handle.
struct G {
    ct_generator g = nullptr;
    explicit G(uint64_t seed) { ok(ct_generator_new(seed, &g)); }
    ~G() { ct_generator_release(g); }
    G(const G&) = delete;
    G& operator=(const G&) = delete;
};

std::vector<double> rand_v(ct_generator g, int64_t n, ct_dtype dt = CT_FLOAT64) {
    H r;
    ok(ct_rand(&n, 1, dt, test_device(), g, r.out()));
    return values(r);
}
std::vector<double> randn_v(ct_generator g, int64_t n, ct_dtype dt = CT_FLOAT64) {
    H r;
    ok(ct_randn(&n, 1, dt, test_device(), g, r.out()));
    return values(r);
}
std::vector<double> randint_v(ct_generator g, int64_t low, int64_t high, int64_t n, ct_dtype dt = CT_INT64) {
    H r;
    ok(ct_randint(low, high, &n, 1, dt, test_device(), g, r.out()));
    EXPECT_EQ(dtype(r), dt);
    return values(r);
}
std::vector<double> bernoulli_v(ct_generator g, double p, int64_t n, ct_dtype dt = CT_FLOAT32) {
    H probs, r;
    ok(ct_full(&n, 1, p, dt, test_device(), probs.out()));
    ok(ct_bernoulli(probs.get(), g, r.out()));
    return values(r);
}
std::vector<double> randperm_v(ct_generator g, int64_t n) {
    H r;
    ok(ct_randperm(n, test_device(), g, r.out()));
    EXPECT_EQ(dtype(r), CT_INT64);
    return values(r);
}

double mean_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / (double)v.size(); }
double std_of(const std::vector<double>& v) {
    double m = mean_of(v), s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / (double)(v.size() - 1));
}

// Every draw kind, concatenated, from a fresh generator with seed (for reproducibility checks).
std::vector<double> draw_all(uint64_t seed, int64_t n) {
    G g(seed);
    std::vector<double> out;
    for (auto v : {rand_v(g.g, n, CT_FLOAT32), rand_v(g.g, n), randn_v(g.g, n), randn_v(g.g, n, CT_FLOAT32),
                   randint_v(g.g, -1000, 1000, n), bernoulli_v(g.g, 0.4, n), randperm_v(g.g, n)})
        out.insert(out.end(), v.begin(), v.end());
    return out;
}

}  // namespace

TEST(Random, PhiloxKnownAnswer) {
    for_each_device([&] {
        // Random123 tests/kat_vectors: "philox4x32 10" with counter 0 and key 0 gives
        // 6627e8d5 e169c58d bc57ac4c 9b00dbd8. Seed 0 is key 0; the first element uses counter 0.
        G g(0);
        EXPECT_EQ(rand_v(g.g, 1)[0], (double)(0x6627e8d5e169c58dull >> 11) / 9007199254740992.0);
        ok(ct_generator_seed(g.g, 0));
        EXPECT_EQ(rand_v(g.g, 1, CT_FLOAT32)[0], (double)(0x6627e8d5u >> 8) / 16777216.0);
    });
}

TEST(Random, SameSeedSameNumbers) {
    for_each_device([&] {
        std::vector<double> a = draw_all(42, 257), b = draw_all(42, 257), c = draw_all(43, 257);
        EXPECT_EQ(a, b);
        EXPECT_NE(a, c);
        G g(7);
        std::vector<double> first = rand_v(g.g, 100), second = rand_v(g.g, 100);
        EXPECT_NE(first, second);  // the stream advances
        CT_ASSERT_OK(ct_generator_seed(g.g, 7));
        EXPECT_EQ(rand_v(g.g, 100), first);
        EXPECT_EQ(rand_v(g.g, 100), second);
    });
}

TEST(Random, ManualSeedDrivesDefaultGenerator) {
    for_each_device([&] {
        CT_ASSERT_OK(ct_manual_seed(123));
        std::vector<double> x = rand_v(nullptr, 50), y = randn_v(nullptr, 50);
        CT_ASSERT_OK(ct_manual_seed(123));
        EXPECT_EQ(rand_v(nullptr, 50), x);
        EXPECT_EQ(randn_v(nullptr, 50), y);
        G g(123);  // the default generator reseeded is the same stream as a new generator
        EXPECT_EQ(rand_v(g.g, 50), x);
        CT_ASSERT_OK(ct_manual_seed(124));
        EXPECT_NE(rand_v(nullptr, 50), x);
    });
}

TEST(Random, UniformStatistics) {
    for_each_device([&] {
        G g(1);
        for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64}) {
            std::vector<double> v = rand_v(g.g, 100000, dt);
            EXPECT_GE(*std::min_element(v.begin(), v.end()), 0.0);
            EXPECT_LT(*std::max_element(v.begin(), v.end()), 1.0);
            EXPECT_NEAR(mean_of(v), 0.5, 0.005);
            EXPECT_NEAR(std_of(v), std::sqrt(1.0 / 12.0), 0.004);
            std::vector<int> bins(10, 0);
            for (double x : v) ++bins[(size_t)(x * 10)];
            for (int b : bins) EXPECT_NEAR(b, 10000, 600);  // ~6 standard deviations
        }
    });
}

TEST(Random, NormalStatistics) {
    for_each_device([&] {
        G g(2);
        for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64}) {
            std::vector<double> v = randn_v(g.g, 100000, dt);
            EXPECT_NEAR(mean_of(v), 0.0, 0.02);
            EXPECT_NEAR(std_of(v), 1.0, 0.015);
            double within1 = (double)std::count_if(v.begin(), v.end(), [](double x) { return std::fabs(x) < 1; });
            EXPECT_NEAR(within1 / 1e5, 0.682689, 0.01);
            for (double x : v) ASSERT_TRUE(std::isfinite(x));
        }
    });
}

TEST(Random, RandintRangeAndCoverage) {
    for_each_device([&] {
        G g(3);
        std::vector<double> v = randint_v(g.g, -3, 4, 100000);
        std::map<double, int> counts;
        for (double x : v) ++counts[x];
        ASSERT_EQ(counts.size(), 7u);
        EXPECT_EQ(counts.begin()->first, -3);
        EXPECT_EQ(counts.rbegin()->first, 3);
        for (auto& kv : counts) EXPECT_NEAR(kv.second, 100000 / 7, 700);
        EXPECT_NEAR(mean_of(v), 0.0, 0.05);
        struct Case { ct_dtype dt; int64_t low, high; };
        for (Case c : {Case{CT_INT32, -100, 100}, Case{CT_UINT8, 0, 256}, Case{CT_BOOL, 0, 2},
                       Case{CT_FLOAT32, -5, 5}, Case{CT_FLOAT64, 10, 20}}) {
            std::vector<double> w = randint_v(g.g, c.low, c.high, 20000, c.dt);
            std::map<double, int> seen;
            for (double x : w) {
                ASSERT_EQ(x, std::floor(x));
                ++seen[x];
            }
            EXPECT_EQ((int64_t)seen.size(), c.high - c.low) << ct_dtype_name(c.dt);
            EXPECT_EQ(seen.begin()->first, c.low);
            EXPECT_EQ(seen.rbegin()->first, c.high - 1);
        }
        const int64_t big = int64_t(1) << 62;
        H r;
        int64_t n = 1000;
        CT_ASSERT_OK(ct_randint(-big, big, &n, 1, CT_INT64, test_device(), g.g, r.out()));
        std::vector<int64_t> raw(1000);
        CT_ASSERT_OK(ct_tensor_copy_to_host(r.get(), raw.data(), 8000));
        EXPECT_LT(*std::min_element(raw.begin(), raw.end()), -(big / 2));
        EXPECT_GT(*std::max_element(raw.begin(), raw.end()), big / 2);
        CT_ASSERT_OK(ct_randint(INT64_MIN, INT64_MAX, &n, 1, CT_INT64, test_device(), g.g, r.out()));
    });
}

TEST(Random, RandintErrors) {
    for_each_device([&] {
        int64_t n = 3;
        H r;
        CT_EXPECT_ERR(ct_randint(5, 5, &n, 1, CT_INT64, test_device(), nullptr, r.out()), CT_ERR_INVALID_ARGUMENT,
                      "randint: high (5) must be greater than low (5)");
        CT_EXPECT_ERR(ct_randint(0, 300, &n, 1, CT_UINT8, test_device(), nullptr, r.out()), CT_ERR_INVALID_ARGUMENT,
                      "does not fit dtype uint8");
        CT_EXPECT_ERR(ct_randint(-1, 2, &n, 1, CT_BOOL, test_device(), nullptr, r.out()), CT_ERR_INVALID_ARGUMENT, "bool");
        CT_EXPECT_ERR(ct_randint(0, int64_t(1) << 25, &n, 1, CT_FLOAT32, test_device(), nullptr, r.out()),
                      CT_ERR_INVALID_ARGUMENT, "float32");
        CT_EXPECT_ERR(ct_randint(INT32_MIN - int64_t(1), 0, &n, 1, CT_INT32, test_device(), nullptr, r.out()),
                      CT_ERR_INVALID_ARGUMENT, "int32");
        EXPECT_FALSE(r);
    });
}

TEST(Random, BernoulliRatesAndErrors) {
    for_each_device([&] {
        G g(4);
        for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64}) {
            std::vector<double> v = bernoulli_v(g.g, 0.3, 100000, dt);
            for (double x : v) ASSERT_TRUE(x == 0 || x == 1);
            EXPECT_NEAR(mean_of(v), 0.3, 0.01);
        }
        H p = make({0, 1, 1, 0, 0.5, 1}, {3, 2}), pt, r;
        CT_ASSERT_OK(ct_transpose(p.get(), 0, 1, pt.out()));  // strided p: [[0, 1, 0.5], [1, 0, 1]]
        CT_ASSERT_OK(ct_bernoulli(pt.get(), g.g, r.out()));
        EXPECT_EQ(shape(r), (Shape{2, 3}));
        EXPECT_EQ(dtype(r), CT_FLOAT64);
        std::vector<double> rv = values(r);
        EXPECT_EQ(rv[0], 0);
        EXPECT_EQ(rv[1], 1);
        EXPECT_EQ(rv[3], 1);
        EXPECT_EQ(rv[4], 0);
        EXPECT_EQ(rv[5], 1);
        H bad = make({0.5, 1.5}, {2}), nan = make({NAN}, {1}), neg = make({-0.1}, {1}), ip = make({1}, {1}, CT_INT64);
        CT_EXPECT_ERR(ct_bernoulli(bad.get(), g.g, r.out()), CT_ERR_INVALID_ARGUMENT,
                      "bernoulli: probability 1.5 at flat index 1 is outside [0, 1]");
        CT_EXPECT_ERR(ct_bernoulli(nan.get(), g.g, r.out()), CT_ERR_INVALID_ARGUMENT, "outside [0, 1]");
        CT_EXPECT_ERR(ct_bernoulli(neg.get(), g.g, r.out()), CT_ERR_INVALID_ARGUMENT, "-0.1");
        CT_EXPECT_ERR(ct_bernoulli(ip.get(), g.g, r.out()), CT_ERR_DTYPE, "bernoulli: expected a floating dtype");
    });
}

TEST(Random, RandpermIsUniformPermutation) {
    for_each_device([&] {
        G g(5);
        std::vector<double> v = randperm_v(g.g, 1000), sorted = v;
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < 1000; ++i) ASSERT_EQ(sorted[(size_t)i], i);
        std::vector<double> identity(sorted);
        EXPECT_NE(v, identity);
        EXPECT_TRUE(randperm_v(g.g, 0).empty());
        EXPECT_EQ(randperm_v(g.g, 1), std::vector<double>{0});
        std::map<std::vector<double>, int> counts;  // all 6 orders of 3 items about equally often
        for (int i = 0; i < 6000; ++i) ++counts[randperm_v(g.g, 3)];
        ASSERT_EQ(counts.size(), 6u);
        for (auto& kv : counts) EXPECT_NEAR(kv.second, 1000, 180);
        H r;
        CT_EXPECT_ERR(ct_randperm(-1, test_device(), g.g, r.out()), CT_ERR_INVALID_ARGUMENT, "randperm: n must be non-negative");
    });
}

TEST(Random, DtypeDeviceAndShapeErrors) {
    for_each_device([&] {
        int64_t shape2[2] = {2, 3}, negative[1] = {-2};
        H r;
        CT_EXPECT_ERR(ct_rand(shape2, 2, CT_INT32, test_device(), nullptr, r.out()), CT_ERR_DTYPE,
                      "rand: expected a floating dtype (float32 or float64), got int32");
        CT_EXPECT_ERR(ct_randn(shape2, 2, CT_BOOL, test_device(), nullptr, r.out()), CT_ERR_DTYPE, "randn");
        CT_EXPECT_ERR(ct_rand(shape2, 2, 99, test_device(), nullptr, r.out()), CT_ERR_DTYPE, "unknown dtype");
        if (ct_cuda_device_count() == 0)  // with a device, test_cuda_random.cpp checks the values
            CT_EXPECT_ERR(ct_rand(shape2, 2, CT_FLOAT32, ct_cuda(0), nullptr, r.out()), CT_ERR_NOT_COMPILED,
                          "rand: device cuda:0 is not available");
        CT_EXPECT_ERR(ct_rand(negative, 1, CT_FLOAT32, test_device(), nullptr, r.out()), CT_ERR_INVALID_ARGUMENT, "rand: negative size -2");
        CT_EXPECT_ERR(ct_rand(nullptr, 2, CT_FLOAT32, test_device(), nullptr, r.out()), CT_ERR_INVALID_ARGUMENT, "shape is NULL");
        CT_EXPECT_ERR(ct_rand(shape2, 2, CT_FLOAT32, test_device(), nullptr, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
        H t = make({1}, {1});
        ct_generator not_a_generator = (ct_generator)(void*)t.get();
        CT_EXPECT_ERR(ct_rand(shape2, 2, CT_FLOAT32, test_device(), not_a_generator, r.out()), CT_ERR_INVALID_HANDLE,
                      "rand: gen is not a live generator handle");
        H e;  // zero elements is fine
        int64_t zero[1] = {0};
        CT_ASSERT_OK(ct_randn(zero, 1, CT_FLOAT32, test_device(), nullptr, e.out()));
        EXPECT_EQ(shape(e), (Shape{0}));
    });
}

TEST(Random, GeneratorHandleLifetime) {
    for_each_device([&] {
        int64_t before = ct_live_handles();
        ct_generator g = nullptr;
        CT_ASSERT_OK(ct_generator_new(9, &g));
        EXPECT_EQ(ct_live_handles(), before + 1);
        ct_tensor_release((ct_tensor)(void*)g);  // releasing through the wrong kind is ignored
        EXPECT_EQ(ct_live_handles(), before + 1);
        EXPECT_EQ(ct_generator_retain(g), g);
        ct_generator_release(g);
        EXPECT_EQ(ct_live_handles(), before + 1);  // still referenced once
        EXPECT_EQ(rand_v(g, 3).size(), 3u);
        ct_generator_release(g);
        EXPECT_EQ(ct_live_handles(), before);
        ct_generator_release(g);  // double release is ignored
        ct_generator_release(nullptr);
        EXPECT_EQ(ct_live_handles(), before);
        int64_t n = 2;
        H r;
        CT_EXPECT_ERR(ct_rand(&n, 1, CT_FLOAT32, test_device(), g, r.out()), CT_ERR_INVALID_HANDLE, "not a live generator");
        CT_EXPECT_ERR(ct_generator_seed(g, 1), CT_ERR_INVALID_HANDLE, "generator_seed");
        CT_EXPECT_ERR(ct_generator_seed(nullptr, 1), CT_ERR_INVALID_HANDLE, "NULL generator");
        CT_EXPECT_ERR(ct_generator_new(1, nullptr), CT_ERR_INVALID_ARGUMENT, "generator_new");
    });
}

TEST(Random, SameNumbersOnEveryDevice) {
    std::vector<double> cpu = draw_all(42, 257);  // outside for_each_device: on the CPU
    for_each_device([&] { EXPECT_EQ(draw_all(42, 257), cpu); });
}

TEST(Random, IndependentOfThreadCount) {
    int32_t original = ct_get_num_threads();
    CT_ASSERT_OK(ct_set_num_threads(1));
    std::vector<double> one = draw_all(77, 300000);
    CT_ASSERT_OK(ct_set_num_threads(2));
    std::vector<double> two = draw_all(77, 300000);
    CT_ASSERT_OK(ct_set_num_threads(original));
    EXPECT_TRUE(one == two);
}

TEST(Random, ConcurrentUseOfOneGenerator) {
    // Each op reserves its own stretch of the stream, so concurrent draws are a partition of one
    // sequential draw of the same total size.
    const int threads = 4, draws = 25, n = 1000;
    G shared(11);
    std::vector<std::vector<double>> got(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            try {
                for (int k = 0; k < draws; ++k) {
                    std::vector<double> v = rand_v(shared.g, n);
                    got[(size_t)t].insert(got[(size_t)t].end(), v.begin(), v.end());
                }
            } catch (const std::exception& e) {
                ADD_FAILURE() << "thread " << t << ": " << e.what();
            }
        });
    for (auto& th : pool) th.join();
    std::vector<double> all;
    for (auto& v : got) all.insert(all.end(), v.begin(), v.end());
    G fresh(11);
    std::vector<double> expect = rand_v(fresh.g, threads * draws * n);
    std::sort(all.begin(), all.end());
    std::sort(expect.begin(), expect.end());
    EXPECT_TRUE(all == expect);
}
