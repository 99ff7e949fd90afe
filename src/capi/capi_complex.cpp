// capi_complex.cpp - C API: complex64 / complex128 scalars, fills, parts, views, conj, angle, polar (issue 15).
#include "capi/capi_common.h"
#include "ops/complex_scalar.h"
#include "ops/ops.h"

using namespace ct;

extern "C" {

ct_status ct_tensor_item_complex(ct_tensor t, double* real, double* imag) {
    return guard([&] {
        check_out(real, "item_complex", "real");
        check_out(imag, "item_complex", "imag");
        std::complex<double> v = item_complex(get_tensor(t, "item_complex", "t"));
        *real = v.real();
        *imag = v.imag();
    });
}

ct_status ct_full_complex(const int64_t* shape, int32_t ndim, double real, double imag, ct_dtype dtype,
                          ct_device device, ct_tensor* out) {
    return guard([&] {
        check_out(out, "full_complex");
        *out = new_tensor_handle(full_complex(shape_arg(shape, ndim, "full_complex"), real, imag,
                                              dtype_arg(dtype, "full_complex"), device_arg(device, "full_complex")));
    });
}

ct_status ct_wrapped_scalar_complex(double real, double imag, ct_tensor* out) {
    return guard([&] {
        check_out(out, "wrapped_scalar_complex");
        *out = new_tensor_handle(wrapped_scalar_complex(real, imag));
    });
}

CT_DEFINE_BINARY(complex, make_complex(A, B))
CT_DEFINE_UNARY(real, ct::real(X))
CT_DEFINE_UNARY(imag, ct::imag(X))
CT_DEFINE_UNARY(view_as_real, view_as_real(X))
CT_DEFINE_UNARY(view_as_complex, view_as_complex(X))
CT_DEFINE_UNARY(conj, ct::conj(X))
CT_DEFINE_UNARY(angle, ct::angle(X))
CT_DEFINE_BINARY(polar, polar(A, B))

}  // extern "C"
