// linalg_eig.cpp - torch.linalg.eig and eigvals of real or complex square matrices with their autograd. The forward is LAPACK
// geev (eig_kernel in linalg_kernels.cpp); the outputs are complex, so the backward works in complex arithmetic
// (torch's conjugate convention) and hands the real input the real part of its gradient, as torch does for a real
// input with complex outputs. The backward is built from differentiable ops (matmul, complex linalg.solve, ...),
// so gradients of gradients work too.
#include <cmath>
#include "autograd/grad_mode.h"
#include "ops/linalg_kernels.h"

namespace ct {

// Note [Eig gradient]: torch 1.13's linalg_eig_backward, for A = V diag(L) V^-1 with unit-norm columns of V:
//   VhgV = V^H gV, projected onto the tangent space of unit-norm columns: VhgV - V^H V diag(Re diag(VhgV))
//   gA = V^-H (VhgV / conj(E) with diag(gL) on the diagonal) V^H,   E_ij = L_j - L_i (1 on the diagonal)
// and for eigvals alone gA = V^-H diag(gL) V^H. The eigenvectors are defined only up to a phase e^{i phi} each; a
// loss that depends on the phase (Im diag(V^H gV) not ~0) has no gradient, and the backward says so, as torch.
// Distinct eigenvalues are assumed (E has zeros off the diagonal otherwise: inf/NaN, as torch).

namespace {

const char* kEig = "linalg.eig";
const char* kEigvals = "linalg.eigvals";


// An identity [n, n] in the real dtype underlying complex tensor like (float32 for complex64).
Tensor real_eye(const Tensor& like, int64_t n) { return eye(n, n, real(like).dtype(), like.device()); }

void check_eig_input(const char* op, const Tensor& a) {
    if (a.dim() < 2)
        fail(CT_ERR_SHAPE, op, ": The input tensor A must have at least 2 dimensions, got shape ", shape_str(a.sizes()));
    if (!is_floating(a.dtype()) && !is_complex(a.dtype()))
        fail(CT_ERR_DTYPE, op, ": Expected a floating point or complex tensor as input, got ", dtype_name(a.dtype()));
    if (is_half(a.dtype()))  // the outputs would be complex32, which ctensor lacks (torch refuses half here too)
        fail(CT_ERR_DTYPE, op, ": not supported for ", dtype_name(a.dtype()),
             " (its complex outputs would be complex32); use float32");
    if (a.size(-1) != a.size(-2))
        fail(CT_ERR_SHAPE, op, ": A must be batches of square matrices, but they are ", a.size(-2), " by ", a.size(-1),
             " matrices");
    if (!a.device().is_cpu())
        fail(CT_ERR_DEVICE, op, ": only CPU tensors are supported (LAPACK geev), got a tensor on ",
             device_str(a.device()));
    NoGradGuard no_grad;
    if (a.numel() > 0 && !std::isfinite(item(max_all(abs(a)))))  // NaN or inf anywhere (max propagates NaN)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": input tensor should not contain infs or NaNs.");
}

// V^-H X V^H, as the gradient of A: its real part for a real A (a complex A keeps it whole).
Tensor conjugate_by_v(const Tensor& v, const Tensor& x, bool real_a) {
    Tensor g = linalg_solve(mH(v), matmul(x, mH(v)));
    return real_a ? real(g) : g;
}

Tensor eig_backward(const Tensor& l, const Tensor& v, const Tensor& gl, const Tensor& gv, bool real_a) {
    const int64_t n = l.size(-1);
    Tensor vhgv = matmul(mH(v), gv);
    {
        NoGradGuard no_grad;
        Tensor im = imag(diagonal(vhgv, 0, -2, -1));
        if (im.numel() > 0 && item(max_all(abs(im))) > 1e-2)
            fail(CT_ERR_AUTOGRAD, "linalg_eig_backward: The eigenvectors in the complex case are specified up to "
                 "multiplication by e^{i phi}. The specified loss function depends on this quantity, so it is ill-defined.");
    }
    Tensor re_diag = unsqueeze(real(diagonal(vhgv, 0, -2, -1)), -2);  // [..., 1, n]
    vhgv = sub(vhgv, matmul(mH(v), mul(v, re_diag)), 1.0);
    Tensor eye_n = real_eye(l, n);
    Tensor e_conj = add(conj(sub(unsqueeze(l, -2), unsqueeze(l, -1), 1.0)), eye_n, 1.0);  // conj(L_j - L_i), 1 on diag
    Tensor off = mul(div(vhgv, e_conj), sub(ones_like(eye_n), eye_n, 1.0));  // the diagonal becomes gL
    Tensor ga = add(off, mul(unsqueeze(gl, -1), eye_n), 1.0);
    return conjugate_by_v(v, ga, real_a);
}

}  // namespace

std::pair<Tensor, Tensor> linalg_eig(const Tensor& a) {
    check_eig_input(kEig, a);
    Tensor l, v;
    {
        NoGradGuard no_grad;
        std::tie(l, v) = eig_kernel(a, true, kEig);
    }
    if (!requires_grad(a)) return {l, v};
    auto node = make_node("LinalgEigBackward", {a}, [real_a = !is_complex(a.dtype())](BackwardCtx& c) -> TensorList {
        return {eig_backward(c.saved(0), c.saved(1), c.grads[0], c.grads[1], real_a)};
    });
    set_history(l, node, 0);
    set_history(v, node, 1);
    node->save_output(l);
    node->save_output(v);
    return {l, v};
}

Tensor linalg_eigvals(const Tensor& a) {
    check_eig_input(kEigvals, a);
    const bool grad = requires_grad(a);
    Tensor l, v;
    {
        NoGradGuard no_grad;
        std::tie(l, v) = eig_kernel(a, grad, kEigvals);  // the vectors only when the backward needs them
    }
    if (!grad) return l;
    auto node = make_node("LinalgEigvalsBackward", {a}, [real_a = !is_complex(a.dtype())](BackwardCtx& c) -> TensorList {
        Tensor v = c.saved(0), gl = c.grads[0];
        return {conjugate_by_v(v, mul(unsqueeze(gl, -1), real_eye(v, v.size(-1))), real_a)};
    });
    node->save(v);
    set_history(l, node);
    return l;
}

}  // namespace ct
