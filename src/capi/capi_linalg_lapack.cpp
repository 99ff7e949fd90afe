// capi_linalg_lapack.cpp - C API: torch.linalg's LAPACK-backed ops (ops/linalg_decomp.cpp); on CUDA tensors they
// run on cuSOLVER (ops/linalg_device.cpp; the names are in the CUDA-capable set of capi_cuda.cpp).
#include "capi/capi_common.h"
#include "ops/linalg_ops.h"

using namespace ct;

namespace {
template <typename F> ct_status one_matrix(const char* op, ct_tensor a, ct_tensor* out, F f) {
    return guard([&] {
        check_out(out, op);
        *out = new_tensor_handle(f(get_tensor(a, op, "A")));
    });
}

QrMode qr_mode_arg(int32_t mode) {
    if (mode < CT_QR_REDUCED || mode > CT_QR_R)
        fail(CT_ERR_INVALID_ARGUMENT, "linalg.qr: mode must be CT_QR_REDUCED (0), CT_QR_COMPLETE (1) or CT_QR_R (2), got ",
             mode);
    return static_cast<QrMode>(mode);
}
}  // namespace

extern "C" {

ct_status ct_linalg_inv(ct_tensor a, ct_tensor* out) {
    return one_matrix("linalg.inv", a, out, [](const Tensor& A) { return linalg_inv(A); });
}
ct_status ct_linalg_det(ct_tensor a, ct_tensor* out) {
    return one_matrix("linalg.det", a, out, [](const Tensor& A) { return linalg_det(A); });
}
ct_status ct_linalg_slogdet(ct_tensor a, ct_tensor* sign, ct_tensor* logabsdet) {
    return guard([&] {
        check_out(sign, "linalg.slogdet", "sign");
        check_out(logabsdet, "linalg.slogdet", "logabsdet");
        auto r = linalg_slogdet(get_tensor(a, "linalg.slogdet", "A"));
        set_tensor_outs({{r.first, sign}, {r.second, logabsdet}});
    });
}
ct_status ct_linalg_solve(ct_tensor a, ct_tensor b, ct_tensor* out) {
    return guard([&] {
        check_out(out, "linalg.solve");
        Tensor A = get_tensor(a, "linalg.solve", "A");
        *out = new_tensor_handle(linalg_solve(A, get_tensor(b, "linalg.solve", "B")));
    });
}
ct_status ct_linalg_cholesky(ct_tensor a, int32_t upper, ct_tensor* out) {
    return one_matrix("linalg.cholesky", a, out, [&](const Tensor& A) { return linalg_cholesky(A, upper != 0); });
}
ct_status ct_linalg_qr(ct_tensor a, int32_t mode, ct_tensor* q, ct_tensor* r) {
    return guard([&] {
        check_out(q, "linalg.qr", "Q");
        check_out(r, "linalg.qr", "R");
        QrMode m = qr_mode_arg(mode);
        auto qr = linalg_qr(get_tensor(a, "linalg.qr", "A"), m);
        set_tensor_outs({{qr.first, q}, {qr.second, r}});
    });
}
ct_status ct_linalg_eigh(ct_tensor a, int32_t upper, ct_tensor* eigenvalues, ct_tensor* eigenvectors) {
    return guard([&] {
        check_out(eigenvalues, "linalg.eigh", "eigenvalues");
        check_out(eigenvectors, "linalg.eigh", "eigenvectors");
        auto lv = linalg_eigh(get_tensor(a, "linalg.eigh", "A"), upper != 0);
        set_tensor_outs({{lv.first, eigenvalues}, {lv.second, eigenvectors}});
    });
}
ct_status ct_linalg_eig(ct_tensor a, ct_tensor* eigenvalues, ct_tensor* eigenvectors) {
    return guard([&] {
        check_out(eigenvalues, "linalg.eig", "eigenvalues");
        check_out(eigenvectors, "linalg.eig", "eigenvectors");
        auto lv = linalg_eig(get_tensor(a, "linalg.eig", "A"));
        set_tensor_outs({{lv.first, eigenvalues}, {lv.second, eigenvectors}});
    });
}
ct_status ct_linalg_eigvals(ct_tensor a, ct_tensor* out) {
    return one_matrix("linalg.eigvals", a, out, [](const Tensor& A) { return linalg_eigvals(A); });
}
ct_status ct_linalg_eigvalsh(ct_tensor a, int32_t upper, ct_tensor* out) {
    return one_matrix("linalg.eigvalsh", a, out, [&](const Tensor& A) { return linalg_eigvalsh(A, upper != 0); });
}
ct_status ct_linalg_svd(ct_tensor a, int32_t full_matrices, ct_tensor* u, ct_tensor* s, ct_tensor* vh) {
    return guard([&] {
        check_out(u, "linalg.svd", "U");
        check_out(s, "linalg.svd", "S");
        check_out(vh, "linalg.svd", "Vh");
        auto usv = linalg_svd(get_tensor(a, "linalg.svd", "A"), full_matrices != 0);
        set_tensor_outs({{std::get<0>(usv), u}, {std::get<1>(usv), s}, {std::get<2>(usv), vh}});
    });
}
ct_status ct_linalg_svdvals(ct_tensor a, ct_tensor* out) {
    return one_matrix("linalg.svdvals", a, out, [](const Tensor& A) { return linalg_svdvals(A); });
}
ct_status ct_linalg_solve_triangular(ct_tensor a, ct_tensor b, int32_t upper, int32_t left, int32_t unitriangular,
                                     ct_tensor* out) {
    return guard([&] {
        const char* op = "linalg.solve_triangular";
        check_out(out, op);
        Tensor A = get_tensor(a, op, "A");
        *out = new_tensor_handle(linalg_solve_triangular(A, get_tensor(b, op, "B"), upper != 0, left != 0,
                                                         unitriangular != 0));
    });
}

}  // extern "C"
