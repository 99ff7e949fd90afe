// fuzz_amp.cpp - fuzz actions for mixed precision (issue 15): the gradient scaler steps on pool tensors (any
// dtype, shape, device: 0-d, empty, half, released handles) with edge factors and intervals, and ops called inside
// an autocast region of a fuzzed dtype (the casts then meet every tensor the pool holds). Reached from norm_ops.
#include "fuzz_common.h"

namespace fz {

void amp_ops(Input& in, Pool& p, uint8_t which) {
    bool oka = true, okb = true, okc = true;
    ct_tensor a = p.pick(in, &oka);
    ct_tensor b = p.pick(in, &okb);
    ct_tensor c = p.pick(in, &okc);
    switch (which % 3) {
    case 0: {  // zero to three gradients, then found_inf and inv_scale
        bool okg = true;
        ct_tensor g2 = p.pick(in, &okg);
        ct_tensor grads[2] = {a, g2};
        int32_t n = (int32_t)(in.u8() % 3);
        bool ok = okb && okc && (n < 1 || oka) && (n < 2 || okg);
        check_status("amp_non_finite_check_and_unscale_", ct_amp_non_finite_check_and_unscale_(grads, n, b, c), !ok);
        break;
    }
    case 1: {
        double growth = in.u8() < 0xc0 ? 2.0 : in.scalar(), backoff = in.u8() < 0xc0 ? 0.5 : in.scalar();
        // count() - 2 wraps (in unsigned arithmetic) rather than overflowing for the most negative counts
        int64_t interval = in.u8() < 0xc0 ? 1 + in.u8() % 4 : (int64_t)((uint64_t)in.count() - 2u);
        check_status("amp_update_scale_", ct_amp_update_scale_(a, b, c, growth, backoff, interval),
                     !(oka && okb && okc));
        break;
    }
    case 2: {  // a region of a fuzzed dtype (only float16 / bfloat16 are accepted) around the listed ops
        int32_t dtype = (int32_t)(in.u8() % 12);
        int32_t cache = in.flag();
        ct_dtype prev_dtype = CT_BFLOAT16;
        ct_status st = ct_autocast_set_dtype(CT_DEVICE_CPU, dtype, &prev_dtype);
        check_status("autocast_set_dtype", st, false);
        if (st == CT_OK) {
            int32_t prev_cache = ct_autocast_set_cache_enabled(cache);
            ct_autocast_set_enabled(CT_DEVICE_CPU, 1, nullptr);
            ct_autocast_set_enabled(CT_DEVICE_CUDA, 1, nullptr);
            ct_autocast_increment_nesting();
            call(in, p, "linear", !(oka && okb) || (c && !okc), 1, 0,
                 [&](ct_tensor* o) { return ct_linear(a, b, c, o); });
            call(in, p, "matmul", !(oka && okb), 1, 0, [&](ct_tensor* o) { return ct_matmul(a, b, o); });
            call(in, p, "mse_loss", !(oka && okb), 1, 0,
                 [&](ct_tensor* o) { return ct_mse_loss(a, b, CT_REDUCTION_MEAN, o); });
            ct_tensor parts[3] = {a, b, c};
            call(in, p, "cat", !(oka && okb && okc), 1, 0, [&](ct_tensor* o) { return ct_cat(parts, 3, 0, o); });
            ct_autocast_set_enabled(CT_DEVICE_CPU, 0, nullptr);
            ct_autocast_set_enabled(CT_DEVICE_CUDA, 0, nullptr);
            if (ct_autocast_decrement_nesting() != 0) die("autocast", "nesting did not return to 0");
            if (ct_autocast_cache_size() != 0) die("autocast", "the cache outlived the outermost region");
            ct_autocast_set_cache_enabled(prev_cache);
            ct_autocast_set_dtype(CT_DEVICE_CPU, prev_dtype, nullptr);
        }
        break;
    }
    }
}

}  // namespace fz
