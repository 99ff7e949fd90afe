// nn_rows.cpp - the out-of-line exp loops of nn_rows.h; the float loop is cloned per instruction set so that
// the branch-free exp_vec runs on the widest vectors the CPU has.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")  // lets the NaN-aware selects in exp_vec vectorise
#endif
#include "cpu/nn_rows.h"
#include "cpu/vec_math.h"  // CT_CLONES

namespace ct {

CT_CLONES void exp_shifted(const float* x, float* y, int64_t n, float shift) {
    for (int64_t i = 0; i < n; ++i) y[i] = exp_vec(x[i] - shift);
}

void exp_shifted(const double* x, double* y, int64_t n, double shift) {
    for (int64_t i = 0; i < n; ++i) y[i] = std::exp(x[i] - shift);
}

}  // namespace ct
