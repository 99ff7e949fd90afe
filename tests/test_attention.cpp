// test_attention.cpp - ct_scaled_dot_product_attention through the C API: values against a host loop of
// softmax(q k^T * scale + mask) v (masks bool/float/broadcast, causal, scale, blocks crossed, batch broadcast) on
// the CPU (blocked kernel) and CUDA (composite), gradients by central differences in float64 (with dropout under a
// re-seeded generator), dropout statistics, edge cases and errors.
#include <cmath>
#include <limits>
#include "ct_test.h"

using namespace ctt;

namespace {

struct Case {
    Shape q, k, v, mask;  // mask empty = none
    bool bool_mask = false, causal = false;
    double scale = NAN;
};

size_t numel(const Shape& s) {
    size_t n = 1;
    for (int64_t d : s) n *= (size_t)d;
    return n;
}

// Row-major index of multi-index idx (for out's shape) into a tensor of shape s broadcast to it.
size_t bcast_index(const Shape& s, const Shape& out, const std::vector<int64_t>& idx) {
    size_t off = 0;
    const size_t lead = out.size() - s.size();
    for (size_t d = 0; d < s.size(); ++d) off = off * (size_t)s[d] + (size_t)(s[d] == 1 ? 0 : idx[lead + d]);
    return off;
}

Shape bcast(Shape a, Shape b) {
    if (a.size() < b.size()) std::swap(a, b);
    for (size_t i = 0; i < b.size(); ++i) {
        int64_t& x = a[a.size() - b.size() + i];
        x = x == 1 ? b[i] : x;
    }
    return a;
}

// The reference: every output element from its own score row, in double.
std::vector<double> reference(const Case& c, const std::vector<double>& q, const std::vector<double>& k,
                              const std::vector<double>& v, const std::vector<double>& m) {
    const int64_t L = c.q[c.q.size() - 2], E = c.q.back(), S = c.k[c.k.size() - 2], Ev = c.v.back();
    Shape batch = bcast(bcast(Shape(c.q.begin(), c.q.end() - 2), Shape(c.k.begin(), c.k.end() - 2)),
                        Shape(c.v.begin(), c.v.end() - 2));
    if (c.mask.size() > 2) batch = bcast(batch, Shape(c.mask.begin(), c.mask.end() - 2));
    const double scale = std::isnan(c.scale) ? 1.0 / std::sqrt((double)E) : c.scale;
    const size_t B = numel(batch), nb = batch.size();
    Shape full = batch;
    full.push_back(0), full.push_back(0);
    std::vector<int64_t> idx(full.size());
    // element (r, col) of the b-th matrix of a tensor of shape s broadcast over the batch (idx holds b's indices)
    auto at = [&](const Shape& s, int64_t r, int64_t col) {
        idx[nb] = r, idx[nb + 1] = col;
        return bcast_index(s, full, idx);
    };
    std::vector<double> out(B * (size_t)(L * Ev));
    for (size_t b = 0; b < B; ++b) {
        size_t rest = b;
        for (size_t d = nb; d-- > 0;) idx[d] = (int64_t)(rest % (size_t)batch[d]), rest /= (size_t)batch[d];
        for (int64_t i = 0; i < L; ++i) {
            std::vector<double> s((size_t)S);
            double mx = -INFINITY;
            for (int64_t j = 0; j < S; ++j) {
                double dotp = 0;
                for (int64_t e = 0; e < E; ++e) dotp += q[at(c.q, i, e)] * k[at(c.k, j, e)];
                double sv = dotp * scale;
                if (!c.mask.empty()) {
                    double mv = m[at(c.mask, i, j)];
                    sv = c.bool_mask ? (mv != 0 ? sv : -INFINITY) : sv + mv;
                }
                if (c.causal && j > i) sv = -INFINITY;
                s[(size_t)j] = sv;
                mx = std::max(mx, sv);
            }
            double sum = 0;
            for (double& x : s) sum += (x = std::exp(x - mx));
            for (int64_t e = 0; e < Ev; ++e) {
                double acc = 0;
                for (int64_t j = 0; j < S; ++j) acc += s[(size_t)j] / sum * v[at(c.v, j, e)];
                out[(b * (size_t)L + (size_t)i) * (size_t)Ev + (size_t)e] = acc;
            }
        }
    }
    return out;
}

H sdpa(const H& q, const H& k, const H& v, const H& m, double p, bool causal, double scale, ct_generator g = nullptr) {
    H o;
    ok(ct_scaled_dot_product_attention(q.get(), k.get(), v.get(), m.get(), p, causal, scale, g, o.out()));
    return o;
}

void check_case(const char* what, const Case& c, ct_dtype dt, double tol) {
    SCOPED_TRACE(what);
    std::vector<double> qv = rand_values(numel(c.q), 1), kv = rand_values(numel(c.k), 2),
                        vv = rand_values(numel(c.v), 3), mv;
    if (!c.mask.empty()) {
        mv = rand_values(numel(c.mask), 4, -2, 2);
        if (c.bool_mask)
            for (size_t i = 0; i < mv.size(); ++i) mv[i] = (mv[i] > -1.5 || i % 7 == 0) ? 1 : 0;
    }
    H m = c.mask.empty() ? H() : make(mv, c.mask, c.bool_mask ? CT_BOOL : dt);
    H o = sdpa(make(qv, c.q, dt), make(kv, c.k, dt), make(vv, c.v, dt), m, 0.0, c.causal, c.scale);
    EXPECT_TRUE(allclose(o, reference(c, qv, kv, vv, mv), tol, tol));
}

}  // namespace

TEST(Attention, ValuesMatchTheMathOnEachDevice) {
    for_each_device([] {
        for (ct_dtype dt : {CT_FLOAT64, CT_FLOAT32}) {
            const double tol = dt == CT_FLOAT64 ? 1e-10 : 2e-5;
            check_case("plain 4-d", {{2, 3, 5, 4}, {2, 3, 7, 4}, {2, 3, 7, 6}, {}}, dt, tol);
            check_case("many blocks", {{2, 130, 5}, {2, 300, 5}, {2, 300, 3}, {}}, dt, tol);
            check_case("batch broadcast", {{2, 1, 5, 4}, {3, 7, 4}, {1, 7, 2}, {}}, dt, tol);
            check_case("2-d", {{9, 4}, {6, 4}, {6, 5}, {}, false, false, 0.3}, dt, tol);
            check_case("bool mask [L, S]", {{2, 70, 4}, {2, 140, 4}, {2, 140, 3}, {70, 140}, true}, dt, tol);
            check_case("float mask broadcast", {{2, 3, 5, 4}, {2, 3, 7, 4}, {2, 3, 7, 6}, {2, 1, 5, 7}}, dt, tol);
            check_case("float mask [S]", {{3, 5, 4}, {3, 7, 4}, {3, 7, 6}, {7}}, dt, tol);
            check_case("mask widens batch", {{5, 4}, {7, 4}, {7, 6}, {3, 5, 7}}, dt, tol);
            check_case("causal L < S", {{2, 70, 4}, {2, 200, 4}, {2, 200, 3}, {}, false, true}, dt, tol);
            check_case("causal L > S", {{2, 150, 4}, {2, 100, 4}, {2, 100, 3}, {}, false, true}, dt, tol);
            check_case("causal and mask", {{1, 66, 4}, {1, 66, 4}, {1, 66, 3}, {66, 66}, true, true, 0.7}, dt, tol);
        }
    });
}

TEST(Attention, GradientsMatchCentralDifferences) {
    for_each_device([] {
        auto f = [](bool causal, bool with_mask) {
            return [=](const std::vector<H>& x) {
                return sdpa(x[0], x[1], x[2], with_mask ? x[3] : H(), 0.0, causal, NAN);
            };
        };
        EXPECT_TRUE(gradcheck(f(false, false), {randt({2, 3, 4}, 1), randt({2, 5, 4}, 2), randt({2, 5, 3}, 3)}));
        // q's 70 rows and k's 130 rows cross the kernel's 64-row query and 128-column key blocks
        EXPECT_TRUE(gradcheck(f(true, false), {randt({70, 2}, 4), randt({130, 2}, 5), randt({130, 1}, 6)}));
        EXPECT_TRUE(gradcheck(f(false, true),
                              {randt({2, 3, 4}, 7), randt({2, 5, 4}, 8), randt({2, 5, 3}, 9), randt({3, 5}, 10)}));
        EXPECT_TRUE(gradcheck(f(false, false), {randt({2, 1, 3, 4}, 11), randt({3, 5, 4}, 12), randt({5, 3}, 13)}));
    });
}

TEST(Attention, DropoutGradientsUnderAFixedSeed) {
    ct_generator g = nullptr;
    CT_ASSERT_OK(ct_generator_new(7, &g));
    auto f = [g](const std::vector<H>& x) {
        ok(ct_generator_seed(g, 123));  // the same keep bits for every evaluation
        return sdpa(x[0], x[1], x[2], H(), 0.4, false, NAN, g);
    };
    EXPECT_TRUE(gradcheck(f, {randt({2, 67, 3}, 1), randt({2, 131, 3}, 2), randt({2, 131, 2}, 3)}));
    ct_generator_release(g);
}

TEST(Attention, DropoutKeepsTheExpectationAndFollowsTheGenerator) {
    ct_generator g = nullptr;
    CT_ASSERT_OK(ct_generator_new(3, &g));
    H q = randt({4, 64, 8}, 1, false), k = randt({4, 256, 8}, 2, false);
    H v = make(std::vector<double>(4 * 256, 1.0), {4, 256, 1});
    H a = sdpa(q, k, v, H(), 0.3, false, NAN, g), b = sdpa(q, k, v, H(), 0.3, false, NAN, g);
    std::vector<double> va = values(a), vb = values(b);
    double mean = 0;
    for (double x : va) mean += x / (double)va.size();
    EXPECT_NEAR(mean, 1.0, 0.02);  // each row's probabilities sum to 1 before dropout; kept ones scaled by 1/0.7
    EXPECT_NE(va, vb);             // the generator moved on
    ok(ct_generator_seed(g, 3));
    EXPECT_EQ(values(sdpa(q, k, v, H(), 0.3, false, NAN, g)), va);
    EXPECT_TRUE(allclose(sdpa(q, k, v, H(), 1.0, false, NAN, g), std::vector<double>(4 * 64, 0.0), 0, 0));
    ct_generator_release(g);
}

TEST(Attention, FullyMaskedRowsAreNaNAndEmptyKeysGiveZeros) {
    H q = randt({2, 3}, 1, false), k = randt({4, 3}, 2, false), v = randt({4, 2}, 3, false);
    H m = make({0, 0, 0, 0, 1, 0, 1, 1}, {2, 4}, CT_BOOL);
    std::vector<double> o = values(sdpa(q, k, v, m, 0, false, NAN));
    EXPECT_TRUE(std::isnan(o[0]) && std::isnan(o[1]));
    EXPECT_FALSE(std::isnan(o[2]) || std::isnan(o[3]));
    H e = sdpa(q, randt({0, 3}, 4, false), randt({0, 5}, 5, false), H(), 0, false, NAN);
    EXPECT_EQ(shape(e), (Shape{2, 5}));
    EXPECT_TRUE(allclose(e, std::vector<double>(10, 0.0)));
}

TEST(Attention, BadInputIsAClearError) {
    H q = randt({2, 3, 4}, 1, false), k = randt({2, 5, 4}, 2, false), v = randt({2, 5, 6}, 3, false), o;
    H k3 = randt({2, 5, 3}, 4, false), v4 = randt({2, 4, 6}, 5, false);
    CT_EXPECT_ERR(ct_scaled_dot_product_attention(q.get(), k3.get(), v.get(), nullptr, 0, 0, NAN, nullptr, o.out()),
                  CT_ERR_SHAPE, "key's last dim must equal query's");
    CT_EXPECT_ERR(ct_scaled_dot_product_attention(q.get(), k.get(), v4.get(), nullptr, 0, 0, NAN, nullptr, o.out()),
                  CT_ERR_SHAPE, "[2, 4, 6]");
    H qf = make(std::vector<double>(24, 1.0), {2, 3, 4}, CT_FLOAT32);
    CT_EXPECT_ERR(ct_scaled_dot_product_attention(qf.get(), k.get(), v.get(), nullptr, 0, 0, NAN, nullptr, o.out()),
                  CT_ERR_DTYPE, "float32, float64 and float64");
    H mi = make(std::vector<double>(15, 1.0), {3, 5}, CT_INT64), mw = randt({3, 4}, 6, false);
    CT_EXPECT_ERR(ct_scaled_dot_product_attention(q.get(), k.get(), v.get(), mi.get(), 0, 0, NAN, nullptr, o.out()),
                  CT_ERR_DTYPE, "attn_mask must be bool or floating, got int64");
    CT_EXPECT_ERR(ct_scaled_dot_product_attention(q.get(), k.get(), v.get(), mw.get(), 0, 0, NAN, nullptr, o.out()),
                  CT_ERR_SHAPE, "attn_mask [3, 4] does not broadcast to [..., L, S] = [2, 3, 5]");
    CT_EXPECT_ERR(ct_scaled_dot_product_attention(q.get(), k.get(), v.get(), nullptr, 1.5, 0, NAN, nullptr, o.out()),
                  CT_ERR_INVALID_ARGUMENT, "dropout_p must be in [0, 1], got 1.5");
    CT_EXPECT_ERR(ct_scaled_dot_product_attention(nullptr, k.get(), v.get(), nullptr, 0, 0, NAN, nullptr, o.out()),
                  CT_ERR_INVALID_HANDLE, "scaled_dot_product_attention");
    H x = randt({3}, 7, false);
    CT_EXPECT_ERR(ct_scaled_dot_product_attention(x.get(), k.get(), v.get(), nullptr, 0, 0, NAN, nullptr, o.out()),
                  CT_ERR_SHAPE, "expected query [..., L, E]");
    EXPECT_FALSE(o);
}
