// fuzz_more_ops.cpp - fuzz actions for issue 14's last reductions and products (logcumsumexp, aminmax, var_mean /
// std_mean, kron, tensordot, inner), reached from toolbox_ops. Every out-parameter of these ops is required, so a
// NULL one must fail like a bad handle.
#include "fuzz_common.h"

namespace fz {

void more_ops(Input& in, Pool& p, uint8_t which) {
    bool okx = true, oky = true;
    ct_tensor x = p.pick(in, &okx);
    ct_tensor y = p.pick(in, &oky);
    int64_t d = in.dim();
    int32_t has_dim = in.flag(), keep = in.flag();
    unsigned mask = in.u8() % 8 == 0 ? 1u + in.flag() : 0u;  // sometimes a NULL out-parameter (must fail)
    switch (which % 5) {
    case 0: call(in, p, "logcumsumexp", !okx, 1, 0, [&](ct_tensor* o) { return ct_logcumsumexp(x, d, o); }); break;
    case 1:
        call(in, p, "aminmax", !okx || mask, 2, mask, [&](ct_tensor* o) {
            return ct_aminmax(x, d, has_dim, keep, mask & 1 ? nullptr : o, mask & 2 ? nullptr : o + 1);
        });
        break;
    case 2: {
        std::vector<int64_t> dims = in.dims(4);
        double corr = in.scalar();
        bool is_std = in.flag();
        const int64_t* dp = dims.empty() && in.flag() ? nullptr : dims.data();
        call(in, p, is_std ? "std_mean" : "var_mean", !okx || mask, 2, mask, [&](ct_tensor* o) {
            return (is_std ? ct_std_mean : ct_var_mean)(x, dp, (int32_t)dims.size(), corr, keep,
                                                        mask & 1 ? nullptr : o, mask & 2 ? nullptr : o + 1);
        });
        break;
    }
    case 3: {
        std::vector<int64_t> da = in.dims(4), db = in.flag() ? da : in.dims(4);
        call(in, p, "tensordot", !okx || !oky, 1, 0, [&](ct_tensor* o) {
            return ct_tensordot(x, y, da.data(), (int32_t)da.size(), db.data(), (int32_t)db.size(), o);
        });
        break;
    }
    default:
        call(in, p, "kron", !okx || !oky, 1, 0, [&](ct_tensor* o) { return ct_kron(x, y, o); });
        call(in, p, "inner", !okx || !oky, 1, 0, [&](ct_tensor* o) { return ct_inner(x, y, o); });
    }
}

}  // namespace fz
