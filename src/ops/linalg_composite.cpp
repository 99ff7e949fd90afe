// linalg_composite.cpp - the torch.linalg ops composed of others (no backward of their own): matrix_power, cross,
// vector_norm, matrix_norm, pinv, matrix_rank (lstsq is in linalg_lstsq.cpp). Their gradients come from the ops they are made of
// (matmul, inv, svd/svdvals, qr, solve_triangular, the reductions), so they hold where those hold (Note [Linalg
// gradients] in linalg_decomp.cpp: distinct singular values for the SVD-based ones).
#include <cmath>
#include <limits>
#include "ops/half_compute.h"
#include "ops/linalg_ops.h"
#include "ops/unary_common.h"

namespace ct {
namespace {

// float32/float64 and (Note [Complex linalg] in linalg_decomp.cpp) complex64/complex128
void check_float(const char* op, const Tensor& t) {
    if (!is_floating(t.dtype()) && !is_complex(t.dtype()))
        fail(CT_ERR_DTYPE, op, ": Expected a floating point or complex tensor as input, got ", dtype_name(t.dtype()));
}

void check_matrix(const char* op, const Tensor& a) {
    if (a.dim() < 2)
        fail(CT_ERR_SHAPE, op, ": The input tensor A must have at least 2 dimensions, got shape ", shape_str(a.sizes()));
}

// s with its last size replaced by last.
Shape with_dims(Shape s, int64_t last) {
    s.back() = last;
    return s;
}

// torch's tolerance rule of pinv and matrix_rank: atol and rtol < 0 mean "not given"; with neither given
// rtol = eps * max(m, n); with only atol given rtol = 0. Returns tol [..., 1] = max(atol, rtol * s_max).
Tensor singular_tolerance(const Tensor& s, const Tensor& a, double atol, double rtol) {
    const double eps = real_dtype(a.dtype()) == DType::Float32 ? std::numeric_limits<float>::epsilon()
                                                   : std::numeric_limits<double>::epsilon();
    if (rtol < 0) rtol = atol > 0 ? 0.0 : eps * (double)std::max(a.size(-1), a.size(-2));
    Tensor smax = s.size(-1) == 0 ? zeros(with_dims(s.sizes(), 1), s.dtype(), s.device())
                                  : max_dim(s, -1, true).first;
    return clamp(mul_scalar(smax, rtol), std::max(atol, 0.0), std::nullopt);
}

}  // namespace

Tensor linalg_matrix_power(const Tensor& a, int64_t n) {
    // Note [Half compute]
    if (auto h = half_dtype_of(a)) return round_results(linalg_matrix_power(as_float32(a), n), *h);
    const char* op = "linalg.matrix_power";
    check_matrix(op, a);
    if (a.size(-1) != a.size(-2))
        fail(CT_ERR_SHAPE, op, ": A must be batches of square matrices, but they are ", a.size(-2), " by ", a.size(-1),
             " matrices");
    if (a.dtype() == DType::Bool) fail(CT_ERR_DTYPE, op, ": bool tensors are not supported");
    if (n == 0) {  // the identity, in the graph with a zero gradient (torch's output requires grad too)
        Tensor z = unary::record1(zeros_like(a), "LinalgMatrixPowerZeroBackward", a, false, false,
                                  [](BackwardCtx& c) { return zeros_like(c.grads[0]); });
        return add(z, eye(a.size(-1), a.size(-1), a.dtype(), a.device()));
    }
    if (n < 0 && !is_floating(a.dtype()) && !is_complex(a.dtype()))
        fail(CT_ERR_DTYPE, op, ": negative powers need a floating point or complex A (its inverse), got ",
             dtype_name(a.dtype()));
    Tensor base = n < 0 ? linalg_inv(a) : a, result;
    uint64_t k = n < 0 ? (uint64_t)(-(n + 1)) + 1 : (uint64_t)n;  // |n| without overflow at INT64_MIN
    while (true) {  // binary powering: result = base^k
        if (k & 1) result = result.defined() ? matmul(result, base) : base;
        k >>= 1;
        if (!k) break;
        base = matmul(base, base);
    }
    return result;
}

Tensor linalg_cross(const Tensor& a, const Tensor& b, int64_t dim) {
    const char* op = "linalg.cross";
    check_same_device(op, a, b);
    if (a.dtype() != b.dtype())
        fail(CT_ERR_DTYPE, op, ": expected a and b to have the same dtype, got ", dtype_name(a.dtype()), " and ",
             dtype_name(b.dtype()));
    if (a.dtype() == DType::Bool) fail(CT_ERR_DTYPE, op, ": bool tensors are not supported");
    if (a.dim() != b.dim())
        fail(CT_ERR_SHAPE, op, ": inputs must have the same number of dimensions, got ", a.dim(), " and ", b.dim());
    if (a.dim() == 0) fail(CT_ERR_SHAPE, op, ": inputs must have at least one dimension (of size 3), got 0-d tensors");
    Shape s = broadcast_shapes(op, a.sizes(), b.sizes());
    const int64_t d = wrap_dim(dim, (int64_t)s.size(), op);
    if (s[d] != 3)
        fail(CT_ERR_SHAPE, op, ": dimension ", dim, " does not have size 3 (shapes ", shape_str(a.sizes()), " and ",
             shape_str(b.sizes()), ")");
    Tensor x = expand(a, s), y = expand(b, s);
    auto c = [d](const Tensor& t, int64_t i) { return narrow(t, d, i, 1); };
    return cat({sub(mul(c(x, 1), c(y, 2)), mul(c(x, 2), c(y, 1))), sub(mul(c(x, 2), c(y, 0)), mul(c(x, 0), c(y, 2))),
                sub(mul(c(x, 0), c(y, 1)), mul(c(x, 1), c(y, 0)))},
               d);
}

Tensor linalg_vector_norm(const Tensor& x, double ord, const IntList& dims, bool keepdim) {
    const char* op = "linalg.vector_norm";
    check_float(op, x);
    if (std::isnan(ord)) fail(CT_ERR_INVALID_ARGUMENT, op, ": ord must be a number, got nan");
    if (is_complex(x.dtype())) return linalg_vector_norm(abs(x), ord, dims, keepdim);  // the norm of |x|, as torch
    if (ord >= 0 || std::isinf(ord)) return norm(x, ord, dims, keepdim);
    // a negative finite order: (sum |x|^ord)^(1/ord), as torch (a zero element gives 0)
    return pow_scalar(sum(pow_scalar(abs(x), ord), dims, keepdim), 1.0 / ord);
}

Tensor linalg_matrix_norm(const Tensor& x, const std::string& ord, int64_t dim0, int64_t dim1, bool keepdim) {
    // Note [Half compute]
    if (auto h = half_dtype_of(x))
        return round_results(linalg_matrix_norm(as_float32(x), ord, dim0, dim1, keepdim), *h);
    const char* op = "linalg.matrix_norm";
    check_float(op, x);
    check_matrix(op, x);
    const int64_t d0 = wrap_dim(dim0, x.dim(), op), d1 = wrap_dim(dim1, x.dim(), op);
    if (d0 == d1) fail(CT_ERR_INVALID_ARGUMENT, op, ": dims must be different, got (", dim0, ", ", dim1, ")");
    if (ord == "fro") return norm(is_complex(x.dtype()) ? abs(x) : x, 2.0, {d0, d1}, keepdim);
    auto restore = [&](Tensor r) {  // r has x's dims without d0, d1 (in order): put them back as size 1
        if (keepdim) r = unsqueeze(unsqueeze(r, std::min(d0, d1)), std::max(d0, d1));
        return r;
    };
    if (ord == "nuc" || ord == "2" || ord == "-2") {
        IntList perm;
        for (int64_t i = 0; i < x.dim(); ++i)
            if (i != d0 && i != d1) perm.push_back(i);
        perm.push_back(d0);
        perm.push_back(d1);
        Tensor s = linalg_svdvals(permute(x, perm));
        if (ord == "nuc") return restore(sum(s, {-1}, false));
        if (s.size(-1) == 0)
            fail(CT_ERR_INDEX, op, ": the ", ord, "-norm of an empty matrix (shape ", shape_str(x.sizes()),
                 ") is not defined");
        return restore(ord == "2" ? max_dim(s, -1, false).first : min_dim(s, -1, false).first);
    }
    // 1 / -1: max / min over columns of the column sums of |x|; inf / -inf: the same over rows
    int64_t sum_dim, pick_dim;
    bool largest;
    if (ord == "1" || ord == "-1") sum_dim = d0, pick_dim = d1, largest = ord == "1";
    else if (ord == "inf" || ord == "-inf") sum_dim = d1, pick_dim = d0, largest = ord == "inf";
    else
        fail(CT_ERR_INVALID_ARGUMENT, op, ": ord must be 'fro', 'nuc', 'inf', '-inf', '1', '-1', '2' or '-2', got '",
             ord, "'");
    if (x.size(pick_dim) == 0)
        fail(CT_ERR_INDEX, op, ": the ", ord, "-norm of an empty matrix (shape ", shape_str(x.sizes()),
             ") is not defined");
    Tensor sums = sum(abs(x), {sum_dim}, true);  // |x| is real for complex x too
    Tensor r = largest ? max_dim(sums, pick_dim, true).first : min_dim(sums, pick_dim, true).first;
    return keepdim ? r : squeeze(squeeze(r, std::max(d0, d1)), std::min(d0, d1));
}

Tensor linalg_pinv(const Tensor& a, double atol, double rtol) {
    // Note [Half compute]
    if (auto h = half_dtype_of(a)) return round_results(linalg_pinv(as_float32(a), atol, rtol), *h);
    const char* op = "linalg.pinv";
    check_matrix(op, a);
    check_float(op, a);
    auto [u, s, vh] = linalg_svd(a, false);
    Tensor tol = singular_tolerance(s, a, atol, rtol), keep = gt(s, tol);
    // 1/s where kept, else 0; the unkept branch reads 1, never 1/0 (Note [Masked branches] in activations.cpp)
    Tensor sinv = where(keep, reciprocal(where(keep, s, ones_like(s))), zeros_like(s));
    return matmul(mul(mH(vh), unsqueeze(sinv, -2)), mH(u));
}

Tensor linalg_matrix_rank(const Tensor& a, double atol, double rtol) {
    // Note [Half compute]
    if (auto h = half_dtype_of(a)) return round_results(linalg_matrix_rank(as_float32(a), atol, rtol), *h);
    const char* op = "linalg.matrix_rank";
    check_matrix(op, a);
    check_float(op, a);
    Tensor s = linalg_svdvals(detach(a));
    return sum(gt(s, singular_tolerance(s, a, atol, rtol)), {-1}, false);
}

Tensor linalg_lstsq(const Tensor& a, const Tensor& b) {
    // torch's default driver: gelsy on the CPU, gels (the only one cuSOLVER offers) on CUDA
    return linalg_lstsq_ex(a, b, -1.0, a.device().is_cpu() ? LstsqDriver::Gelsy : LstsqDriver::Gels).solution;
}

}  // namespace ct
