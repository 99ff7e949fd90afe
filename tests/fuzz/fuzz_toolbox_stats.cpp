// fuzz_toolbox_stats.cpp - fuzz actions for the rest of issue 14's toolbox (repeat_interleave, meshgrid, median /
// nanmedian and their dim forms, quantile / nanquantile, cdist), reached from toolbox_ops.
#include "fuzz_common.h"

namespace fz {

void toolbox_stats_ops(Input& in, Pool& p, uint8_t which) {
    bool okx = true, oky = true;
    ct_tensor x = p.pick(in, &okx);
    ct_tensor y = p.pick(in, &oky);  // repeats / q (optional: NULL is valid there) / x2, or a second grid input
    int64_t d = in.dim();
    int32_t has_dim = in.flag(), keep = in.flag();
    switch (which % 4) {
    case 0: {  // repeats: a pool tensor or NULL (then the scalar count)
        bool use_tensor = in.flag();
        ct_tensor reps = use_tensor ? y : nullptr;
        int64_t r = in.count(), osize = in.count();
        int32_t has_osize = in.flag();
        call(in, p, "repeat_interleave", !okx || (reps && !oky), 1, 0, [&](ct_tensor* o) {
            return ct_repeat_interleave(x, reps, r, d, has_dim, osize, has_osize, o);
        });
        break;
    }
    case 1: {  // one to three grid inputs
        bool okz = true;
        ct_tensor z = p.pick(in, &okz);
        ct_tensor hs[3] = {x, y, z};
        int32_t n = 1 + (int32_t)(in.u8() % 3);
        bool ok = okx && (n < 2 || oky) && (n < 3 || okz);
        int32_t indexing = in.u8() % 3 == 2 ? 5 : in.flag();  // sometimes an unknown mode
        int32_t cap = in.u8() % 8 == 0 ? n - 1 : n;              // sometimes too few slots
        call(in, p, "meshgrid", !ok || cap < n, n, 0, [&](ct_tensor* o) { return ct_meshgrid(hs, n, indexing, o, cap); });
        break;
    }
    case 2: {
        bool nan = in.flag();
        call(in, p, "median", !okx, 1, 0, [&](ct_tensor* o) { return (nan ? ct_nanmedian : ct_median)(x, o); });
        unsigned mask = in.u8() % 3;  // values or indices may be NULL
        call(in, p, "median_dim", !okx, 2, mask, [&](ct_tensor* o) {
            return (nan ? ct_nanmedian_dim : ct_median_dim)(x, d, keep, mask & 1 ? nullptr : o,
                                                             mask & 2 ? nullptr : o + 1);
        });
        break;
    }
    default: {  // q: a pool tensor or NULL (then a scalar); cdist's x2 is y
        bool nan = in.flag(), use_tensor = in.flag();
        double qs = in.scalar(), pnorm = in.scalar();
        int32_t mode = (int32_t)(in.u8() % 6) - (in.flag() ? 0 : 1);  // -1..5: the five modes and bad ones
        ct_tensor q = use_tensor ? y : nullptr;
        call(in, p, "quantile", !okx || (q && !oky), 1, 0, [&](ct_tensor* o) {
            return (nan ? ct_nanquantile : ct_quantile)(x, q, qs, d, has_dim, keep, mode, o);
        });
        int32_t cmode = (int32_t)(in.u8() % 4);
        call(in, p, "cdist", !okx || !oky, 1, 0, [&](ct_tensor* o) { return ct_cdist(x, y, pnorm, cmode, o); });
    }
    }
}

}  // namespace fz
