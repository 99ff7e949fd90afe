// fuzz_norms.cpp - the fuzz actions for the normalisation layers of issue 14 (layer_norm, group_norm,
// batch_norm), called from call_op with arguments from the input: pool tensors or NULL for every optional handle,
// normalized_shape from the input (edge sizes included), group counts and momentum / eps edge values.
#include "fuzz_common.h"

namespace fz {
namespace {

// An optional tensor argument: NULL (a valid "none") or a pool tensor; *ok is cleared only by a released or
// wrong-kind handle.
ct_tensor optional(Input& in, Pool& p, bool* ok) {
    if (in.flag()) return nullptr;
    bool oko = true;
    ct_tensor t = p.pick(in, &oko);
    if (t != nullptr && !oko) *ok = false;
    return t;
}

}  // namespace

void norm_ops(Input& in, Pool& p, uint8_t which) {
    if (which % 16 >= 13) return amp_ops(in, p, which);  // fuzz_amp.cpp (issue 15)
    bool okx = true, oka = true;
    ct_tensor x = p.pick(in, &okx);
    ct_tensor w = optional(in, p, &oka), b = optional(in, p, &oka);
    double eps = in.u8() < 0xc0 ? 1e-5 : in.scalar();
    switch (which % 3) {
    case 0: {
        std::vector<int64_t> ns = in.sizes(4);
        bool null_shape = in.u8() == 0xff && !ns.empty();
        call(in, p, "layer_norm", !okx || !oka || null_shape, 1, 0, [&](ct_tensor* o) {
            return ct_layer_norm(x, null_shape ? nullptr : ns.data(), (int32_t)ns.size(), w, b, eps, o);
        });
        break;
    }
    case 1: {
        int64_t groups = in.u8() < 0xe0 ? in.count() : in.edge();
        call(in, p, "group_norm", !okx || !oka, 1, 0,
             [&](ct_tensor* o) { return ct_group_norm(x, groups, w, b, eps, o); });
        break;
    }
    default: {
        ct_tensor rm = optional(in, p, &oka), rv = optional(in, p, &oka);
        int32_t training = in.flag();
        double momentum = in.u8() < 0xc0 ? 0.1 : in.scalar();
        call(in, p, "batch_norm", !okx || !oka, 1, 0, [&](ct_tensor* o) {
            return ct_batch_norm(x, rm, rv, w, b, training, momentum, eps, o);
        });
    }
    }
}

}  // namespace fz
