// fuzz_complex.cpp - the fuzz actions for the complex64 / complex128 ops of issue 15 (full_complex, complex,
// real, imag, view_as_real, view_as_complex, conj, angle, polar, item_complex, wrapped_scalar_complex), reached from toolbox_ops. Pool
// tensors of complex dtypes reach every other op through Input::dtype().
#include "fuzz_common.h"

namespace fz {

void complex_ops(Input& in, Pool& p, uint8_t which) {
    bool oka = true, okb = true;
    ct_tensor a = p.pick(in, &oka);
    ct_tensor b = p.pick(in, &okb);
    switch (which % 7) {
    case 0: {  // a shape of up to 3 sizes (negative, zero, huge) and any dtype / device
        std::vector<int64_t> shape = in.sizes(3);
        bool negative = false, overflow = false;
        int64_t numel = 1;
        for (int64_t s : shape) {
            negative = negative || s < 0;
            if (s >= 0 && __builtin_mul_overflow(numel, s, &numel)) overflow = true;
        }
        if (!negative && !overflow && numel > (1 << 12)) return;  // valid but too large to make cheaply
        ct_dtype dt = in.dtype();
        ct_device dev = in.device();
        double re = in.scalar(), im = in.scalar();
        bool must_fail = negative || (dt != CT_COMPLEX64 && dt != CT_COMPLEX128) || dev.type != CT_DEVICE_CPU;
        call(in, p, "full_complex", must_fail, 1, 0, [&](ct_tensor* o) {
            return ct_full_complex(shape.data(), (int32_t)shape.size(), re, im, dt, dev, o);
        });
        break;
    }
    case 1:
        call(in, p, "complex", !(oka && okb), 1, 0, [&](ct_tensor* o) { return ct_complex(a, b, o); });
        call(in, p, "polar", !(oka && okb), 1, 0, [&](ct_tensor* o) { return ct_polar(a, b, o); });
        break;
    case 2:
        call(in, p, "real", !oka, 1, 0, [&](ct_tensor* o) { return ct_real(a, o); });
        call(in, p, "imag", !oka, 1, 0, [&](ct_tensor* o) { return ct_imag(a, o); });
        break;
    case 3:
        call(in, p, "view_as_real", !oka, 1, 0, [&](ct_tensor* o) { return ct_view_as_real(a, o); });
        call(in, p, "view_as_complex", !oka, 1, 0, [&](ct_tensor* o) { return ct_view_as_complex(a, o); });
        break;
    case 4:
        call(in, p, "conj", !oka, 1, 0, [&](ct_tensor* o) { return ct_conj(a, o); });
        call(in, p, "angle", !oka, 1, 0, [&](ct_tensor* o) { return ct_angle(a, o); });
        break;
    case 5: {
        double re = 0, im = 0;
        check_status("tensor_item_complex", ct_tensor_item_complex(a, &re, &im), !oka);
        check_status("tensor_item_complex", ct_tensor_item_complex(a, nullptr, &im), true);
        break;
    }
    case 6: {  // a complex number (any doubles: NaN, inf, huge) kept in the pool, and a against it on either side
        double re = in.scalar(), im = in.scalar();
        call(in, p, "wrapped_scalar_complex", false, 1, 0,
             [&](ct_tensor* o) { return ct_wrapped_scalar_complex(re, im, o); });
        check_status("wrapped_scalar_complex", ct_wrapped_scalar_complex(re, im, nullptr), true);
        ct_tensor s = nullptr;
        check_status("wrapped_scalar_complex", ct_wrapped_scalar_complex(re, im, &s), false);
        call(in, p, "mul", !oka, 1, 0, [&](ct_tensor* o) { return ct_mul(a, s, o); });
        call(in, p, "div", !oka, 1, 0, [&](ct_tensor* o) { return ct_div(s, a, o); });
        call(in, p, "sub", !oka, 1, 0, [&](ct_tensor* o) { return ct_sub(s, a, in.scalar(), o); });
        call(in, p, "pow", !oka, 1, 0, [&](ct_tensor* o) { return ct_pow(a, s, o); });
        call(in, p, "eq", !oka, 1, 0, [&](ct_tensor* o) { return ct_eq(a, s, o); });
        call(in, p, "lt", true, 1, 0, [&](ct_tensor* o) { return ct_lt(s, a, o); });  // never ordered
        ct_tensor_release(s);
        break;
    }
    }
}

}  // namespace fz
