// reduce_ref.h - independent naive reference reductions for the tests: slices of a row-major value list
// gathered by plain index counting, and per-slice formulas written directly from their definitions.
#pragma once
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace ctt_ref {

using Vec = std::vector<double>;
using Dims = std::vector<int64_t>;
using SliceFn = std::function<double(const Vec&)>;

inline int64_t numel_of(const Dims& s) {
    int64_t n = 1;
    for (auto v : s) n *= v;
    return n;
}

inline std::string dims_str(const Dims& d) {
    std::string s = "[";
    for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
    return s + "]";
}

// mask[d] = dim d is reduced (empty dims = all; a 0-d shape has no dims to mark).
inline std::vector<bool> dim_mask(const Dims& shape, const Dims& dims) {
    int64_t nd = (int64_t)shape.size();
    std::vector<bool> m((size_t)nd, dims.empty());
    if (nd == 0) return m;
    for (auto d : dims) m[(size_t)(d < 0 ? d + nd : d)] = true;
    return m;
}

inline Dims naive_shape(const Dims& shape, const Dims& dims, bool keepdim) {
    auto m = dim_mask(shape, dims);
    Dims out;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (!m[d]) out.push_back(shape[d]);
        else if (keepdim) out.push_back(1);
    }
    return out;
}

// Slices of vals (row-major over shape) along the reduced dims, each in row-major order of those dims.
inline std::vector<Vec> naive_slices(const Vec& vals, const Dims& shape, const Dims& dims) {
    auto mask = dim_mask(shape, dims);
    int64_t nd = (int64_t)shape.size(), n_out = 1;
    for (int64_t d = 0; d < nd; ++d)
        if (!mask[d]) n_out *= shape[d];
    std::vector<Vec> slices((size_t)n_out);
    Dims idx((size_t)nd, 0);
    for (size_t i = 0; i < vals.size(); ++i) {
        int64_t o = 0;
        for (int64_t d = 0; d < nd; ++d)
            if (!mask[d]) o = o * shape[d] + idx[d];
        slices[(size_t)o].push_back(vals[i]);
        for (int64_t d = nd - 1; d >= 0; --d) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
    }
    return slices;
}

inline Vec naive_reduce(const Vec& vals, const Dims& shape, const Dims& dims, const SliceFn& f) {
    Vec out;
    for (const Vec& s : naive_slices(vals, shape, dims)) out.push_back(f(s));
    return out;
}

// Every dim list for rank nd: {} (all), each non-empty subset ascending, and the same subset with
// negative dims in reverse order; rank 0 gets {}, {0} and {-1}.
inline std::vector<Dims> dim_lists(int64_t nd) {
    if (nd == 0) return {{}, {0}, {-1}};
    std::vector<Dims> out = {{}};
    for (int64_t m = 1; m < (1 << nd); ++m) {
        Dims asc, neg;
        for (int64_t d = 0; d < nd; ++d)
            if (m & (1 << d)) asc.push_back(d), neg.insert(neg.begin(), d - nd);
        out.push_back(asc);
        out.push_back(neg);
    }
    return out;
}

inline double ref_sum(const Vec& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}
inline double ref_mean(const Vec& v) { return v.empty() ? NAN : ref_sum(v) / (double)v.size(); }
inline double ref_prod(const Vec& v) {
    double p = 1;
    for (double x : v) p *= x;
    return p;
}
inline double ref_var(const Vec& v, double correction) {
    double m = ref_mean(v), s = 0;
    for (double x : v) s += (x - m) * (x - m);
    double div = (double)v.size() - correction;
    return s / (div > 0 ? div : 0.0);
}
inline double ref_logsumexp(const Vec& v) {
    if (v.empty()) return -INFINITY;
    double m = v[0];
    for (double x : v) m = x > m ? x : m;
    double s = 0;
    for (double x : v) s += std::exp(x - m);
    return m + std::log(s);
}
inline double ref_norm(const Vec& v, double p) {
    double s = 0;
    for (double x : v) s += p == 0 ? (x != 0) : std::pow(std::fabs(x), p);
    return p == 0 ? s : std::pow(s, 1.0 / p);
}

}  // namespace ctt_ref
