// linalg_decomp.cpp - torch.linalg's LAPACK-backed ops with their autograd: inv, det, slogdet, solve, cholesky,
// solve_triangular, qr, eigh/eigvalsh, svd/svdvals. The forward is a kernel of linalg_kernels.cpp run without
// recording; each backward is the standard formula written with differentiable ops (matmul, these ops
// themselves), so gradients of gradients work too. Shapes follow torch: [..., m, n] batched over leading dims.
#include "ops/half_compute.h"
#include "autograd/grad_mode.h"
#include "ops/linalg_kernels.h"

namespace ct {

// Note [Linalg gradients]: the formulas are torch 1.13's (FunctionsManual.cpp), for real matrices:
//   inv:   gA = -X^T g X^T (X = A^-1)              det:  gA = g det(A) A^-T (the SVD's cofactors where det is 0)
//   slogdet: gA = g_logabsdet A^-T                   solve: gB = A^-H g, gA = -gB X^H (^H = ^T when real)
//   cholesky (Murray 2016): gA = L^-T Phi L^-1, Phi = (tril(L^T gL) + tril(L^T gL, -1)^T) / 2
//   solve_triangular: gB = op(A)^-T g, gA = -gB X^T (left) or -X^T gB (right), masked to A's triangle
//   qr (reduced, m >= n; Walter et al.): gA = (gQ + Q copyltu(R gR^T - gQ^T Q)) R^-T; m < n by splitting R
//   eigh: gA = sym(V (diag(gL) + (V^T gV) / E) V^T), E_ij = L_j - L_i off the diagonal (distinct eigenvalues),
//         sym(X) = (X + X^T) / 2 as torch (only symmetric perturbations exist)
//   svd: torch's svd_backward (distinct nonzero singular values; full_matrices uses the first k vectors)
// Complex A (Note [Complex linalg]): the same formulas with ^T read as ^H (mH), torch's conjugate convention, plus
// torch's complex-only terms: det's and slogdet's scales are g conj(det) and g_abs - i Im(conj(g_sign) sign); eigh
// projects V^H gV on the skew-Hermitian matrices, (X - X^H) / 2, before dividing by E (for real A this equals the
// symmetric part above); svd adds diag(skew(U^H gU)) / (2 S) to the diagonal (the phase of the vectors).
// Every output a backward receives is defined (the engine fills zeros), so the "gU undefined" shortcuts of torch
// become the separate svdvals/eigvalsh nodes, which never divide by eigenvalue gaps.

namespace {

Tensor eye_like(const Tensor& a, int64_t n) { return eye(n, n, a.dtype(), a.device()); }
// v [..., n] -> diag(v) [..., n, n]
Tensor diag_embed(const Tensor& v) { return mul(unsqueeze(v, -1), eye_like(v, v.size(-1))); }

// Note [Complex linalg]: every op here takes complex64/complex128 A (CPU only, as every complex tensor) through the
// complex LAPACK traits of cpu/lapack.h; the real-valued results (slogdet's logabsdet, eigh's eigenvalues, the
// singular values) are of A's real dtype, as torch's.
void check_linalg_input(const char* op, const Tensor& a, bool square) {
    if (a.dim() < 2)
        fail(CT_ERR_SHAPE, op, ": The input tensor A must have at least 2 dimensions, got shape ", shape_str(a.sizes()));
    if (!is_floating(a.dtype()) && !is_complex(a.dtype()))
        fail(CT_ERR_DTYPE, op, ": Expected a floating point or complex tensor as input, got ", dtype_name(a.dtype()));
    if (square && a.size(-1) != a.size(-2))
        fail(CT_ERR_SHAPE, op, ": A must be batches of square matrices, but they are ", a.size(-2), " by ", a.size(-1),
             " matrices");
}

void check_pair(const char* op, const Tensor& a, const Tensor& b) {
    check_same_device(op, a, b);
    if (!is_floating(b.dtype()) && !(is_complex(a.dtype()) && is_complex(b.dtype())))
        fail(CT_ERR_DTYPE, op, ": Expected a floating point tensor (float32 or float64) as B, got ", dtype_name(b.dtype()));
    if (a.dtype() != b.dtype())
        fail(CT_ERR_DTYPE, op, ": Expected A and B to have the same dtype, but found A of type ", dtype_name(a.dtype()),
             " and B of type ", dtype_name(b.dtype()), " instead");
}

Shape batch_of(const Tensor& t) { return Shape(t.sizes().begin(), t.sizes().end() - 2); }
Shape with_tail(Shape s, int64_t r, int64_t c) {
    s.push_back(r);
    s.push_back(c);
    return s;
}

// A [..., n, n] and B [..., r, c] expanded to their common batch shape (differentiable: expand sums back).
std::pair<Tensor, Tensor> broadcast_batch(const char* op, const Tensor& a, const Tensor& b) {
    Shape bs = broadcast_shapes(op, batch_of(a), batch_of(b));
    return {expand(a, with_tail(bs, a.size(-2), a.size(-1))), expand(b, with_tail(bs, b.size(-2), b.size(-1)))};
}

// The recorded primitives (inputs checked and broadcast).

Tensor inv_op(const Tensor& a) {
    Tensor out;
    {
        NoGradGuard no_grad;
        out = inv_kernel(a, "linalg.inv");
    }
    if (!requires_grad(a)) return out;
    auto node = make_node("LinalgInvBackward", {a}, [](BackwardCtx& c) -> TensorList {
        Tensor xh = mH(c.saved(0));
        return {neg(matmul(xh, matmul(c.grads[0], xh)))};
    });
    set_history(out, node);
    node->save_output(out);
    return out;
}

// scale A^-H (scale of A's batch shape): the shared part of det's and slogdet's backward.
Tensor inv_transpose_times(const Tensor& a, const Tensor& scale) {
    return mul(unsqueeze(unsqueeze(scale, -1), -1), mH(inv_op(a)));
}

std::tuple<Tensor, Tensor, Tensor> svd_op(const Tensor& a, bool full);

// det's gradient g * conj(cof(A)), cof(A) = det(A) A^-T. Note [Singular det]: where some det(A) is 0 the cofactor
// matrix still exists; it is taken from the SVD A = U S Vh for every batch element then: conj(cof(A)) =
// conj(det(U) det(Vh)) U diag(c) Vh with c_i the product of the singular values other than s_i (prefix times
// suffix products, no division).
Tensor det_backward(const Tensor& a, const Tensor& g, const Tensor& det) {
    const int64_t n = a.size(-1);
    bool singular = false;
    if (n > 0 && det.numel() > 0) {
        NoGradGuard no_grad;
        singular = item(any(eq(det, wrapped_scalar(0.0, false)), {}, false)) != 0;
    }
    if (!singular) return inv_transpose_times(a, mul(g, conj(det)));
    auto [u, s, vh] = svd_op(a, false);
    auto excl_cumprod = [n](const Tensor& v) {  // [1, v_0, v_0 v_1, ...] along the last dim
        return cumprod(cat({ones_like(narrow(v, -1, 0, 1)), narrow(v, -1, 0, n - 1)}, -1), -1);
    };
    Tensor c = mul(excl_cumprod(s), flip(excl_cumprod(flip(s, {-1})), {-1}));
    Tensor sign = conj(mul(linalg_det(u), linalg_det(vh)));
    return mul(unsqueeze(unsqueeze(mul(g, sign), -1), -1), matmul(mul(u, unsqueeze(c, -2)), vh));
}

Tensor solve_op(const Tensor& a, const Tensor& b) {
    Tensor out;
    {
        NoGradGuard no_grad;
        out = solve_kernel(a, b, "linalg.solve");
    }
    if (!any_requires_grad({a, b})) return out;
    auto node = make_node("LinalgSolveBackward", {a, b}, [](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), x = c.saved(1);
        Tensor gb = solve_op(mH(a), c.grads[0]);  // complex: torch's conjugate convention
        return {c.needs(0) ? neg(matmul(gb, mH(x))) : Tensor(), c.needs(1) ? gb : Tensor()};
    });
    node->save(a);
    set_history(out, node);
    node->save_output(out);
    return out;
}

Tensor triangular_op(const Tensor& a, const Tensor& b, bool upper, bool left, bool unit) {
    Tensor out;
    {
        NoGradGuard no_grad;
        out = triangular_solve_kernel(a, b, upper, left, false, unit);
    }
    if (!any_requires_grad({a, b})) return out;
    auto node = make_node("LinalgSolveTriangularBackward", {a, b}, [upper, left, unit](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), x = c.saved(1);
        Tensor gb = triangular_op(mH(a), c.grads[0], !upper, left, unit);
        Tensor ga;
        if (c.needs(0)) {
            ga = neg(left ? matmul(gb, mH(x)) : matmul(mH(x), gb));
            ga = upper ? triu(ga, unit ? 1 : 0) : tril(ga, unit ? -1 : 0);
        }
        return {ga, c.needs(1) ? gb : Tensor()};
    });
    node->save(a);
    set_history(out, node);
    node->save_output(out);
    return out;
}

Tensor cholesky_op(const Tensor& a) {
    Tensor out;
    {
        NoGradGuard no_grad;
        out = cholesky_kernel(a, "linalg.cholesky");
    }
    if (!requires_grad(a)) return out;
    auto node = make_node("LinalgCholeskyBackward", {a}, [](BackwardCtx& c) -> TensorList {
        Tensor l = c.saved(0);
        Tensor phi = tril(matmul(mH(l), c.grads[0]), 0);
        phi = mul_scalar(add(phi, mH(tril(phi, -1))), 0.5);
        Tensor ga = triangular_op(mH(l), phi, true, true, false);
        return {triangular_op(l, ga, false, false, false)};
    });
    set_history(out, node);
    node->save_output(out);
    return out;
}

// copyltu(M) = tril(M) + tril(M, -1)^T; for complex M the Hermitian tril(M, -1) + tril(M, -1)^H + Re(diag(M))
Tensor copyltu(const Tensor& m) {
    if (!is_complex(m.dtype())) return add(tril(m, 0), mT(tril(m, -1)));
    Tensor low = tril(m, -1);
    return add(add(low, mH(low)), diag_embed(real(diagonal(m, 0, -2, -1))));
}

// qr's backward for m >= n (R square): (gQ + Q copyltu(R gR^T - gQ^T Q)) R^-T.
Tensor qr_back_tall(const Tensor& q, const Tensor& r, const Tensor& gq, const Tensor& gr) {
    Tensor m = sub(matmul(r, mH(gr)), matmul(mH(gq), q));
    Tensor b = add(gq, matmul(q, copyltu(m)));
    return triangular_op(mH(r), b, false, false, false);  // b R^-H: X R^H = b with R^H lower
}

Tensor qr_backward(const Tensor& a, const Tensor& q, const Tensor& r, const Tensor& gq, const Tensor& gr,
                   QrMode mode) {
    const int64_t m = a.size(-2), n = a.size(-1);
    if (mode == QrMode::ROnly)
        fail(CT_ERR_NOT_SUPPORTED, "linalg.qr: The derivative of linalg.qr depends on Q, which is not computed when ",
             "mode='r'. Use mode='reduced' to differentiate through linalg.qr.");
    if (mode == QrMode::Complete && m > n)
        fail(CT_ERR_NOT_SUPPORTED, "linalg.qr: The QR decomposition is not differentiable when mode='complete' and ",
             "nrows > ncols.");
    if (m >= n) return qr_back_tall(q, r, gq, gr);
    // m < n: A = [X | Y], R = [U | D] with U m x m; X = Q U is the square case, Y = Q D
    Tensor y = narrow(a, -1, m, n - m), u = narrow(r, -1, 0, m), gu = narrow(gr, -1, 0, m), gd = narrow(gr, -1, m, n - m);
    Tensor gx = qr_back_tall(q, u, add(gq, matmul(y, mH(gd))), gu);
    return cat({gx, matmul(q, gd)}, -1);
}

std::pair<Tensor, Tensor> qr_op(const Tensor& a, QrMode mode) {
    std::pair<Tensor, Tensor> qr;
    {
        NoGradGuard no_grad;
        qr = qr_kernel(a, mode);
    }
    if (!requires_grad(a)) return qr;
    auto node = make_node("LinalgQrBackward", {a}, [mode](BackwardCtx& c) -> TensorList {
        Tensor a = c.saved(0), q = c.saved(1), r = c.saved(2);
        return {qr_backward(a, q, r, c.grads[0], c.grads[1], mode)};
    });
    node->save(a);
    set_history(qr.first, node, 0);
    set_history(qr.second, node, 1);
    node->save_output(qr.first);
    node->save_output(qr.second);
    return qr;
}

std::pair<Tensor, Tensor> eigh_op(const Tensor& a, bool upper) {
    std::pair<Tensor, Tensor> lv;
    {
        NoGradGuard no_grad;
        lv = eigh_kernel(a, upper, true, "linalg.eigh");
    }
    if (!requires_grad(a)) return lv;
    auto node = make_node("LinalgEighBackward", {a}, [](BackwardCtx& c) -> TensorList {
        Tensor l = c.saved(0), v = c.saved(1);
        Tensor i = eye_like(l, l.size(-1));
        Tensor e = add(sub(unsqueeze(l, -2), unsqueeze(l, -1)), i);  // L_j - L_i, 1 on the diagonal
        Tensor vhgv = matmul(mH(v), c.grads[1]);
        vhgv = mul_scalar(sub(vhgv, mH(vhgv)), 0.5);  // torch's projection on the skew-Hermitian matrices
        Tensor inner = add(mul(div(vhgv, e), sub(ones_like(i), i)), diag_embed(c.grads[0]));
        return {matmul(v, matmul(inner, mH(v)))};
    });
    set_history(lv.first, node, 0);
    set_history(lv.second, node, 1);
    node->save_output(lv.first);
    node->save_output(lv.second);
    return lv;
}

// A symmetric A's eigenvalues; backward V diag(gL) V^T with V computed in the forward.
Tensor eigvalsh_op(const Tensor& a, bool upper) {
    const bool grad = requires_grad(a);
    std::pair<Tensor, Tensor> lv;
    {
        NoGradGuard no_grad;
        lv = eigh_kernel(a, upper, grad, "linalg.eigvalsh");
    }
    if (!grad) return lv.first;
    auto node = make_node("LinalgEigvalshBackward", {a}, [](BackwardCtx& c) -> TensorList {
        Tensor v = c.saved(0);
        return {matmul(mul(v, unsqueeze(c.grads[0], -2)), mH(v))};
    });
    node->save(lv.second);
    set_history(lv.first, node);
    return lv.first;
}

// torch 1.13's svd_backward for the reduced factors (U [m, k], S [k], Vh [k, n]).
Tensor svd_backward(const Tensor& gu, const Tensor& gs, const Tensor& gvh, const Tensor& u, const Tensor& s,
                    const Tensor& vh) {
    const int64_t m = u.size(-2), n = vh.size(-1);
    auto skew = [](const Tensor& x) { return sub(x, mH(x)); };
    Tensor uhgu = skew(matmul(mH(u), gu)), vhgv = skew(matmul(vh, mH(gvh)));
    Tensor s2 = mul(s, s), i = eye_like(s, s.size(-1));
    Tensor e = add(sub(unsqueeze(s2, -2), unsqueeze(s2, -1)), i);  // S_j^2 - S_i^2, 1 on the diagonal
    Tensor ga = div(add(mul(uhgu, unsqueeze(s, -2)), mul(unsqueeze(s, -1), vhgv)), e);
    ga = add(ga, diag_embed(gs));
    if (is_complex(u.dtype()))  // the phase term: diag(skew(U^H gU)) / (2 S)
        ga = add(ga, diag_embed(div(diagonal(uhgu, 0, -2, -1), mul_scalar(s, 2.0))));
    if (m > n) {
        ga = matmul(u, ga);
        Tensor gusinv = div(gu, unsqueeze(s, -2));
        ga = add(ga, sub(gusinv, matmul(u, matmul(mH(u), gusinv))));
        return matmul(ga, vh);
    }
    if (m < n) {
        ga = matmul(ga, vh);
        Tensor sinvgvh = div(gvh, unsqueeze(s, -1));
        ga = add(ga, sub(sinvgvh, matmul(matmul(sinvgvh, mH(vh)), vh)));
        return matmul(u, ga);
    }
    return matmul(u, matmul(ga, vh));
}

std::tuple<Tensor, Tensor, Tensor> svd_op(const Tensor& a, bool full) {
    std::tuple<Tensor, Tensor, Tensor> usv;
    {
        NoGradGuard no_grad;
        usv = svd_kernel(a, full, true, "linalg.svd");
    }
    if (!requires_grad(a)) return usv;
    auto node = make_node("LinalgSvdBackward", {a}, [full](BackwardCtx& c) -> TensorList {
        Tensor u = c.saved(0), s = c.saved(1), vh = c.saved(2), gu = c.grads[0], gvh = c.grads[2];
        const int64_t k = s.size(-1);
        if (full) {  // only the first k singular vectors take part (torch narrows them the same way)
            u = narrow(u, -1, 0, k), gu = narrow(gu, -1, 0, k);
            vh = narrow(vh, -2, 0, k), gvh = narrow(gvh, -2, 0, k);
        }
        return {svd_backward(gu, c.grads[1], gvh, u, s, vh)};
    });
    set_history(std::get<0>(usv), node, 0);
    set_history(std::get<1>(usv), node, 1);
    set_history(std::get<2>(usv), node, 2);
    node->save_output(std::get<0>(usv));
    node->save_output(std::get<1>(usv));
    node->save_output(std::get<2>(usv));
    return usv;
}

}  // namespace

Tensor linalg_inv(const Tensor& a) {
    if (auto h = half_dtype_of(a)) return round_results(linalg_inv(as_float32(a)), *h);  // Note [Half compute]
    check_linalg_input("linalg.inv", a, true);
    return inv_op(a);
}

Tensor linalg_det(const Tensor& a) {
    if (auto h = half_dtype_of(a)) return round_results(linalg_det(as_float32(a)), *h);  // Note [Half compute]
    check_linalg_input("linalg.det", a, true);
    Tensor det;
    {
        NoGradGuard no_grad;
        det = std::get<2>(lu_det_kernel(a));
    }
    if (!requires_grad(a)) return det;
    auto node = make_node("LinalgDetBackward", {a}, [](BackwardCtx& c) -> TensorList {
        return {det_backward(c.saved(0), c.grads[0], c.saved(1))};
    });
    node->save(a);
    set_history(det, node);
    node->save_output(det);
    return det;
}

std::pair<Tensor, Tensor> linalg_slogdet(const Tensor& a) {
    if (auto h = half_dtype_of(a)) return round_results(linalg_slogdet(as_float32(a)), *h);  // Note [Half compute]
    check_linalg_input("linalg.slogdet", a, true);
    Tensor sign, logabs;
    {
        NoGradGuard no_grad;
        auto r = lu_det_kernel(a);
        sign = std::get<0>(r), logabs = std::get<1>(r);
    }
    if (!requires_grad(a)) return {sign, logabs};
    // sign is an output of the node too (as in torch, it requires grad); for real A its gradient is zero (piecewise
    // constant), for complex A it is the unit det / |det| with the phase term of Note [Linalg gradients]
    auto node = make_node("LinalgSlogdetBackward", {a}, [](BackwardCtx& c) -> TensorList {
        Tensor scale = c.grads[1];  // complex: g_abs - i Im(conj(g_sign) sign)
        if (is_complex(c.saved(1).dtype())) scale = make_complex(scale, neg(imag(mul(conj(c.grads[0]), c.saved(1)))));
        return {inv_transpose_times(c.saved(0), scale)};
    });
    node->save(a);
    set_history(sign, node, 0);
    set_history(logabs, node, 1);
    node->save_output(sign);
    return {sign, logabs};
}

Tensor linalg_solve(const Tensor& a, const Tensor& b) {
    // Note [Half compute]
    if (auto h = half_dtype_of(a, b)) return round_results(linalg_solve(as_float32(a), as_float32(b)), *h);
    const char* op = "linalg.solve";
    check_linalg_input(op, a, true);
    check_pair(op, a, b);
    if (b.dim() == 0) fail(CT_ERR_SHAPE, op, ": B must have at least 1 dimension, got a 0-d tensor");
    // torch's rule: B is a (batch of) vector(s) when it is 1-D or has A's shape without its last dim
    Shape a_rows(a.sizes().begin(), a.sizes().end() - 1);
    const bool vector = b.dim() == 1 || (b.dim() == a.dim() - 1 && b.sizes() == a_rows);
    Tensor bm = vector ? unsqueeze(b, -1) : b;
    if (bm.size(-2) != a.size(-1))
        fail(CT_ERR_SHAPE, op, ": Incompatible shapes of A and B for the equation AX = B (", shape_str(a.sizes()),
             " and ", shape_str(b.sizes()), ")");
    auto [ae, be] = broadcast_batch(op, a, bm);
    Tensor x = solve_op(ae, be);
    return vector ? squeeze(x, -1) : x;
}

Tensor linalg_cholesky(const Tensor& a, bool upper) {
    // Note [Half compute]
    if (auto h = half_dtype_of(a)) return round_results(linalg_cholesky(as_float32(a), upper), *h);
    check_linalg_input("linalg.cholesky", a, true);
    Tensor l = cholesky_op(a);
    return upper ? mH(l) : l;  // U = L^H (A = U^H U)
}

Tensor linalg_solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left, bool unitriangular) {
    // Note [Half compute]
    if (auto h = half_dtype_of(a, b))
        return round_results(linalg_solve_triangular(as_float32(a), as_float32(b), upper, left, unitriangular), *h);
    const char* op = "linalg.solve_triangular";
    check_linalg_input(op, a, true);
    check_pair(op, a, b);
    if (b.dim() < 2)
        fail(CT_ERR_SHAPE, op, ": The input tensor B must have at least 2 dimensions, got shape ", shape_str(b.sizes()));
    const int64_t shared = left ? b.size(-2) : b.size(-1);
    if (shared != a.size(-1))
        fail(CT_ERR_SHAPE, op, ": Incompatible shapes of A and B for the equation ", left ? "AX = B" : "XA = B", " (",
             shape_str(a.sizes()), " and ", shape_str(b.sizes()), ")");
    auto [ae, be] = broadcast_batch(op, a, b);
    return triangular_op(ae, be, upper, left, unitriangular);
}

std::pair<Tensor, Tensor> linalg_qr(const Tensor& a, QrMode mode) {
    if (auto h = half_dtype_of(a)) return round_results(linalg_qr(as_float32(a), mode), *h);  // Note [Half compute]
    check_linalg_input("linalg.qr", a, false);
    return qr_op(a, mode);
}

std::pair<Tensor, Tensor> linalg_eigh(const Tensor& a, bool upper) {
    if (auto h = half_dtype_of(a)) return round_results(linalg_eigh(as_float32(a), upper), *h);  // Note [Half compute]
    check_linalg_input("linalg.eigh", a, true);
    return eigh_op(a, upper);
}

Tensor linalg_eigvalsh(const Tensor& a, bool upper) {
    // Note [Half compute]
    if (auto h = half_dtype_of(a)) return round_results(linalg_eigvalsh(as_float32(a), upper), *h);
    check_linalg_input("linalg.eigvalsh", a, true);
    return eigvalsh_op(a, upper);
}

std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& a, bool full_matrices) {
    // Note [Half compute]
    if (auto h = half_dtype_of(a)) return round_results(linalg_svd(as_float32(a), full_matrices), *h);
    check_linalg_input("linalg.svd", a, false);
    return svd_op(a, full_matrices);
}

Tensor linalg_svdvals(const Tensor& a) {
    if (auto h = half_dtype_of(a)) return round_results(linalg_svdvals(as_float32(a)), *h);  // Note [Half compute]
    check_linalg_input("linalg.svdvals", a, false);
    const bool grad = requires_grad(a);
    std::tuple<Tensor, Tensor, Tensor> usv;
    {
        NoGradGuard no_grad;
        usv = svd_kernel(a, false, grad, "linalg.svdvals");
    }
    Tensor s = std::get<1>(usv);
    if (!grad) return s;
    auto node = make_node("LinalgSvdvalsBackward", {a}, [](BackwardCtx& c) -> TensorList {
        Tensor u = c.saved(0), vh = c.saved(1);  // gA = U diag(gS) Vh
        return {matmul(mul(u, unsqueeze(c.grads[0], -2)), vh)};
    });
    node->save(std::get<0>(usv));
    node->save(std::get<2>(usv));
    set_history(s, node);
    return s;
}

}  // namespace ct
