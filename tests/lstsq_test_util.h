// lstsq_test_util.h - what the real and complex lstsq tests share: the four drivers, a call of ct_linalg_lstsq_ex
// that returns all four outputs, and matmul.
#pragma once
#include "ct_test.h"

namespace ctt {

const int32_t kLstsqDrivers[] = {CT_LSTSQ_GELSY, CT_LSTSQ_GELS, CT_LSTSQ_GELSD, CT_LSTSQ_GELSS};

struct Lstsq {
    H solution, residuals, rank, sv;
};

inline Lstsq lstsq(const H& a, const H& b, int32_t driver, double rcond = -1) {
    Lstsq r;
    ok(ct_linalg_lstsq_ex(a.get(), b.get(), rcond, driver, r.solution.out(), r.residuals.out(), r.rank.out(),
                          r.sv.out()));
    return r;
}

inline H mm(const H& a, const H& b) {
    H r;
    ok(ct_matmul(a.get(), b.get(), r.out()));
    return r;
}

}  // namespace ctt
