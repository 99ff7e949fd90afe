// linalg_lstsq.cpp - torch.linalg.lstsq: the least-squares solution of A X = B through LAPACK's drivers (gelsy, the
// default, and gels, gelsd, gelss: linalg_kernels.cpp), with torch 1.13's shape rules (B a matrix, or a vector when
// it has one dim less than A; batch dims broadcast), its residuals/rank/singular_values outputs and its gradient,
// that of pinv(A) @ B (so it exists for rank-deficient A too, and is twice differentiable: core ops only).
// Complex A and B (complex64/complex128, CPU): the same kernel through the c/z drivers; residuals and singular
// values are of the real dtype, and the gradient is torch's with ^T read as ^H (Wirtinger convention, Note
// [Complex linalg] in linalg_decomp.cpp).
#include <limits>
#include "autograd/grad_mode.h"
#include "ops/complex_ops.h"
#include "ops/half_compute.h"
#include "ops/linalg_kernels.h"
#include "ops/ops.h"

namespace ct {
namespace {

Shape batch_of(const Tensor& t) { return Shape(t.sizes().begin(), t.sizes().end() - 2); }

Shape with_tail(Shape s, int64_t r, int64_t c) {
    s.push_back(r);
    s.push_back(c);
    return s;
}

// The gradient of P = pinv(A) for an incoming gP (torch's pinv_backward), arranged so the intermediate products
// have the smaller of A's two dims. pt, gt: P^H and gP^H (the transposes for real A).
Tensor pinv_backward(const Tensor& gp, const Tensor& p, const Tensor& a) {
    Tensor pt = mH(p), gt = mH(gp);
    if (a.size(-2) <= a.size(-1)) {
        Tensor k = matmul(gt, p), kpt = matmul(k, pt);
        return add(sub(add(neg(mH(matmul(p, k))), kpt), matmul(matmul(a, p), kpt)),
                   matmul(matmul(pt, p), sub(gt, matmul(k, a))));
    }
    Tensor k = matmul(p, gt), ptk = matmul(pt, k);
    return sub(add(add(neg(mH(matmul(k, p))), matmul(matmul(sub(gt, matmul(a, k)), p), pt)), ptk),
               matmul(matmul(ptk, p), a));
}

// X = pinv(A) B's backward: gA through pinv with gP = gX B^H, gB = pinv(A)^H gX.
TensorList lstsq_backward(BackwardCtx& c) {
    const Tensor &a = c.saved(0), &b = c.saved(1), &g = c.grads[0];
    Tensor p = linalg_pinv(a, -1.0, -1.0);
    Tensor ga = c.needs(0) ? pinv_backward(matmul(g, mH(b)), p, a) : Tensor();
    Tensor gb = c.needs(1) ? matmul(mH(p), g) : Tensor();
    return {ga, gb};
}

// |r|^2 elementwise, of r's real dtype: re^2 + im^2 for complex r (as torch's r * conj(r)), r^2 for real r.
Tensor squared_modulus(const Tensor& r) {
    return is_complex(r.dtype()) ? real(mul(r, conj(r))) : pow_scalar(r, 2.0);
}

}  // namespace

LstsqResult linalg_lstsq_ex(const Tensor& a, const Tensor& b, double rcond, LstsqDriver driver) {
    const char* op = "linalg.lstsq";
    if ((int32_t)driver < 0 || (int32_t)driver > 3)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": driver ", (int32_t)driver,
             " should be one of CT_LSTSQ_GELSY (0), CT_LSTSQ_GELS (1), CT_LSTSQ_GELSD (2), CT_LSTSQ_GELSS (3)");
    if (auto h = same_half_dtype(a, b)) {  // Note [Half compute]: through float32, rounded back (docs/dtypes.md)
        LstsqResult r = linalg_lstsq_ex(as_float32(a), as_float32(b), rcond, driver);
        return {round_results(r.solution, *h), round_results(r.residuals, *h), r.rank,
                round_results(r.singular_values, *h)};
    }
    if (a.dtype() != b.dtype())
        fail(CT_ERR_DTYPE, op, ": Expected input and other to have the same dtype, but got input's dtype ",
             dtype_name(a.dtype()), " and other's dtype ", dtype_name(b.dtype()));
    if (!is_floating(a.dtype()) && !is_complex(a.dtype()))
        fail(CT_ERR_DTYPE, op, ": only floating or complex dtypes are supported, got ", dtype_name(a.dtype()));
    check_same_device(op, a, b);  // CUDA: the gels driver only (ops/linalg_device.cpp), as torch
    if (a.dim() < 2) fail(CT_ERR_SHAPE, op, ": input must have at least 2 dimensions, got shape ", shape_str(a.sizes()));
    if (b.dim() < 1) fail(CT_ERR_SHAPE, op, ": other must have at least 1 dimension, got a 0-d tensor");
    if (b.dim() > a.dim() || a.dim() - b.dim() > 1)
        fail(CT_ERR_SHAPE, op, ": input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) "
             "<= 1, got shapes ", shape_str(a.sizes()), " and ", shape_str(b.sizes()));
    if (!(rcond < 0) && !(rcond >= 0))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": rcond must be a number, got NaN");
    const bool vector_b = a.dim() - b.dim() == 1;  // B [..., m]: solved as [..., m, 1], the result squeezed back
    Tensor bm = vector_b ? unsqueeze(b, -1) : b;
    const int64_t m = a.size(-2), n = a.size(-1), k = bm.size(-1);
    if (bm.size(-2) != m)
        fail(CT_ERR_SHAPE, op, ": input.size(-2) should match other.size(", vector_b ? -1 : -2, "), got shapes ",
             shape_str(a.sizes()), " and ", shape_str(b.sizes()));
    Shape bs = broadcast_shapes(op, batch_of(a), batch_of(bm));
    Tensor ae = expand(a, with_tail(bs, m, n)), be = expand(bm, with_tail(bs, m, k));
    if (rcond < 0) {
        const double eps = real_dtype(a.dtype()) == DType::Float32 ? std::numeric_limits<float>::epsilon()
                                                                   : std::numeric_limits<double>::epsilon();
        rcond = eps * (double)std::max(m, n);
    }
    LstsqResult r;
    Tensor buf, rank, sv;
    {
        NoGradGuard no_grad;
        std::tie(buf, rank, sv) = lstsq_kernel(ae, be, driver, rcond);
        r.solution = contiguous(narrow(buf, -2, 0, n));
        bool full_rank = true;  // gels assumes it; gelsd/gelss report the rank
        if (driver == LstsqDriver::Gelsd || driver == LstsqDriver::Gelss)
            full_rank = rank.numel() == 0 || item(all(eq(rank, wrapped_scalar((double)n, true)), {}, false)) != 0;
        r.residuals = m > n && driver != LstsqDriver::Gelsy && full_rank
                          ? sum(squared_modulus(narrow(buf, -2, n, m - n)), {-2}, false)
                          : empty_tensor({0}, real_dtype(a.dtype()), a.device());
    }
    for (int64_t i = 0; i < (int64_t)bs.size(); ++i)  // rank and sv keep A's own batch shape, as torch
        if (a.size(i) == 1 && bs[(size_t)i] != 1) {
            rank = narrow(rank, i, 0, 1);
            sv = narrow(sv, i, 0, 1);
        }
    r.rank = driver == LstsqDriver::Gels ? empty_tensor({0}, DType::Int64, a.device(), op) : rank;
    r.singular_values = driver == LstsqDriver::Gelsd || driver == LstsqDriver::Gelss
                            ? sv
                            : empty_tensor({0}, real_dtype(a.dtype()), a.device(), op);
    if (any_requires_grad({ae, be})) {
        auto node = make_node("LinalgLstsqBackward", {ae, be}, lstsq_backward);
        node->save(ae);
        node->save(be);
        set_history(r.solution, node);
    }
    if (vector_b) r.solution = squeeze(r.solution, -1);
    return r;
}

}  // namespace ct
