// capi_linalg_composite.cpp - C API: torch.linalg's composite ops (ops/linalg_composite.cpp): matrix_power, cross,
// vector_norm, matrix_norm, pinv, matrix_rank, lstsq; CUDA tensors through cuSOLVER (capi_cuda.cpp lists them).
#include "capi/capi_common.h"
#include "ops/linalg_ops.h"

using namespace ct;

extern "C" {

ct_status ct_linalg_matrix_power(ct_tensor a, int64_t n, ct_tensor* out) {
    return guard([&] {
        check_out(out, "linalg.matrix_power");
        *out = new_tensor_handle(linalg_matrix_power(get_tensor(a, "linalg.matrix_power", "A"), n));
    });
}

ct_status ct_linalg_cross(ct_tensor a, ct_tensor b, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "linalg.cross");
        Tensor A = get_tensor(a, "linalg.cross", "a");
        *out = new_tensor_handle(linalg_cross(A, get_tensor(b, "linalg.cross", "b"), dim));
    });
}

ct_status ct_linalg_vector_norm(ct_tensor x, double ord, const int64_t* dims, int32_t ndims, int32_t keepdim,
                                ct_tensor* out) {
    return guard([&] {
        check_out(out, "linalg.vector_norm");
        Tensor X = get_tensor(x, "linalg.vector_norm", "x");
        Shape d = shape_arg(dims, ndims, "linalg.vector_norm", "dims");
        *out = new_tensor_handle(linalg_vector_norm(X, ord, d, keepdim != 0));
    });
}

ct_status ct_linalg_matrix_norm(ct_tensor x, const char* ord, int64_t dim0, int64_t dim1, int32_t keepdim,
                                ct_tensor* out) {
    return guard([&] {
        check_out(out, "linalg.matrix_norm");
        Tensor X = get_tensor(x, "linalg.matrix_norm", "x");
        if (!ord) fail(CT_ERR_INVALID_ARGUMENT, "linalg.matrix_norm: ord is NULL");
        *out = new_tensor_handle(linalg_matrix_norm(X, ord, dim0, dim1, keepdim != 0));
    });
}

ct_status ct_linalg_pinv(ct_tensor a, double atol, double rtol, ct_tensor* out) {
    return guard([&] {
        check_out(out, "linalg.pinv");
        *out = new_tensor_handle(linalg_pinv(get_tensor(a, "linalg.pinv", "A"), atol, rtol));
    });
}

ct_status ct_linalg_matrix_rank(ct_tensor a, double atol, double rtol, ct_tensor* out) {
    return guard([&] {
        check_out(out, "linalg.matrix_rank");
        *out = new_tensor_handle(linalg_matrix_rank(get_tensor(a, "linalg.matrix_rank", "A"), atol, rtol));
    });
}

ct_status ct_linalg_lstsq(ct_tensor a, ct_tensor b, ct_tensor* out) {
    return guard([&] {
        check_out(out, "linalg.lstsq");
        Tensor A = get_tensor(a, "linalg.lstsq", "A");
        *out = new_tensor_handle(linalg_lstsq(A, get_tensor(b, "linalg.lstsq", "B")));
    });
}

ct_status ct_linalg_lstsq_ex(ct_tensor a, ct_tensor b, double rcond, int32_t driver, ct_tensor* solution,
                             ct_tensor* residuals, ct_tensor* rank, ct_tensor* singular_values) {
    return guard([&] {
        check_out(solution, "linalg.lstsq", "solution");
        Tensor A = get_tensor(a, "linalg.lstsq", "A"), B = get_tensor(b, "linalg.lstsq", "B");
        LstsqResult r = linalg_lstsq_ex(A, B, rcond, (LstsqDriver)driver);
        set_tensor_outs({{r.solution, solution}, {r.residuals, residuals}, {r.rank, rank},
                         {r.singular_values, singular_values}});
    });
}

}  // extern "C"
