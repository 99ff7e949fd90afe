// fuzz_toolbox.cpp - the fuzz actions for the toolbox ops of issue 14 (in-place scatters, index_add,
// index_copy, index_put and their in-place forms, searchsorted, bincount, histc, cummax, cummin, nan_to_num, diff,
// take_along_dim), called from call_op with arguments from the input.
#include "fuzz_common.h"

namespace fz {

void toolbox_ops(Input& in, Pool& p, uint8_t which) {
    if (which >= 250) return bool_scalar_ops(in, p, which);  // fuzz_bool_scalar.cpp
    if (which >= 232) return complex_ops(in, p, which);  // fuzz_complex.cpp
    if (which >= 216) return more_ops(in, p, which);     // fuzz_more_ops.cpp
    if (which % 16 >= 12) return toolbox_stats_ops(in, p, which);  // fuzz_toolbox_stats.cpp
    // one validity flag per handle: a call must fail exactly when a handle it uses is NULL, released or wrong-kind
    bool okx = true, oki = true, oks = true;
    ct_tensor x = p.pick(in, &okx);
    ct_tensor idx = p.pick(in, &oki);
    ct_tensor src = p.pick(in, &oks);
    const bool ok = okx && oki && oks;
    int64_t d = in.dim();
    double s = in.scalar();
    int32_t acc = in.flag();
    switch (which % 12) {
    case 9: {
        double s2 = in.scalar(), s3 = in.scalar();
        int32_t f1 = in.flag(), f2 = in.flag(), f3 = in.flag();
        call(in, p, "nan_to_num", !okx, 1, 0, [&](ct_tensor* o) { return ct_nan_to_num(x, s, f1, s2, f2, s3, f3, o); });
        break;
    }
    case 10: {  // prepend / append: NULL or pool tensors
        bool use_pre = in.flag(), use_app = in.flag();
        ct_tensor pre = use_pre ? idx : nullptr, app = use_app ? src : nullptr;
        int64_t n = in.count();
        bool must_fail = !okx || (use_pre && !oki && idx) || (use_app && !oks && src);  // NULL: none
        call(in, p, "diff", must_fail, 1, 0, [&](ct_tensor* o) { return ct_diff(x, n, d, pre, app, o); });
        break;
    }
    case 11:
        call(in, p, "take_along_dim", !(okx && oki), 1, 0,
             [&](ct_tensor* o) { return ct_take_along_dim(x, idx, d, acc, o); });
        break;
    case 5: {  // sorter, weights: NULL or a pool tensor
        bool oko = true;  // NULL is a valid "none" here: only released or wrong-kind handles must fail
        ct_tensor opt = in.flag() ? nullptr : p.pick(in, &oko);
        oko = oko || opt == nullptr;
        int32_t right = in.flag(), i32 = in.flag();
        call(in, p, "searchsorted", !(okx && oki && oko), 1, 0,
             [&](ct_tensor* o) { return ct_searchsorted(x, idx, right, i32, opt, o); });
        int64_t minlength = in.count();
        call(in, p, "bincount", !(okx && oko), 1, 0, [&](ct_tensor* o) { return ct_bincount(x, opt, minlength, o); });
        break;
    }
    case 6: {
        int64_t bins = in.count();
        double hi = in.scalar();
        call(in, p, "histc", !okx, 1, 0, [&](ct_tensor* o) { return ct_histc(x, bins, s, hi, o); });
        break;
    }
    case 7: call(in, p, "cummax", !okx, 2, 0, [&](ct_tensor* o) { return ct_cummax(x, d, o, o + 1); }); break;
    case 8: call(in, p, "cummin", !okx, 2, 0, [&](ct_tensor* o) { return ct_cummin(x, d, o, o + 1); }); break;
    case 0:
        check_status("scatter_", ct_scatter_(x, d, idx, src), !ok);
        check_status("scatter_add_", ct_scatter_add_(x, d, idx, src), !ok);
        {
            int32_t reduce = in.u8() % 6, self = in.flag();  // 5 is not a reduction
            call(in, p, "scatter_reduce", !ok || reduce == 5, 1, 0,
                 [&](ct_tensor* o) { return ct_scatter_reduce(x, d, idx, src, reduce, self, o); });
            check_status("scatter_reduce_", ct_scatter_reduce_(x, d, idx, src, reduce, self), !ok || reduce == 5);
        }
        break;
    case 1:
        call(in, p, "index_add", !ok, 1, 0, [&](ct_tensor* o) { return ct_index_add(x, d, idx, src, s, o); });
        check_status("index_add_", ct_index_add_(x, d, idx, src, s), !ok);
        break;
    case 2:
        call(in, p, "index_copy", !ok, 1, 0, [&](ct_tensor* o) { return ct_index_copy(x, d, idx, src, o); });
        check_status("index_copy_", ct_index_copy_(x, d, idx, src), !ok);
        break;
    default: {  // index_put over up to 3 index tensors (the array may be NULL)
        ct_tensor ts[3];
        int32_t n = in.int32();
        int32_t m = n < 0 ? 0 : n > 3 ? 3 : n;
        bool okl = true;
        for (int i = 0; i < m; ++i) ts[i] = p.pick(in, &okl);
        bool null_array = in.u8() == 0xff;
        if (n > 3) return;  // the array holds only 3
        const ct_tensor* tp = null_array ? nullptr : ts;
        bool must_fail = !okx || !oks || (!okl && !null_array) || n <= 0 || (null_array && n > 0);
        call(in, p, "index_put", must_fail, 1, 0,
             [&](ct_tensor* o) { return ct_index_put(x, tp, n, src, acc, o); });
        check_status("index_put_", ct_index_put_(x, tp, n, src, acc), must_fail);
    }
    }
}

}  // namespace fz
