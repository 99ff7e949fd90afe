// linalg.cpp - matmul with NumPy/PyTorch semantics (1-D promotion, broadcast batch dims), dot and outer.
// float32/float64 go to OpenBLAS sgemm/dgemm, complex64/complex128 to cgemm/zgemm (cpu/gemm.h); strided operands with one unit stride are passed (transposed or not)
// without copying. Integer matmul uses a plain loop. Never called from inside a parallel region.
#include <climits>
#include "core/complex_traits.h"
#include "cpu/gemm.h"
#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "ops/half_compute.h"
#include "ops/device_gemm.h"
#include "ops/elementwise.h"

namespace ct {
namespace {

// A 2-D operand as BLAS sees it: row-major, optionally transposed, with leading dimension ld; conj (complex
// only) asks BLAS for its conjugate (CblasConjTrans / CblasConjNoTrans), so no conjugated copy is made.
struct BlasOperand {
    bool trans = false;
    int64_t ld = 1;
    bool conj = false;
};

BlasOp complex_op(const BlasOperand& o) {
    return o.trans ? (o.conj ? BlasOp::C : BlasOp::T) : (o.conj ? BlasOp::R : BlasOp::N);
}

// Whether a rows x cols matrix with strides (rs, cs) can be passed to row-major BLAS as is.
bool blas_operand(int64_t rows, int64_t cols, int64_t rs, int64_t cs, BlasOperand& op) {
    if ((cols == 1 || cs == 1) && (rows == 1 || rs >= std::max<int64_t>(1, cols))) {
        op = {false, rows == 1 ? std::max<int64_t>(1, cols) : rs};
        return op.ld <= INT_MAX;
    }
    if ((rows == 1 || rs == 1) && (cols == 1 || cs >= std::max<int64_t>(1, rows))) {
        op = {true, cols == 1 ? std::max<int64_t>(1, rows) : cs};
        return op.ld <= INT_MAX;
    }
    return false;
}

// c[m, n] (contiguous) = a @ b through sgemm/dgemm/cgemm/zgemm, split over the thread pool (cpu/gemm.h).
template <typename T>
void blas_gemm(int64_t m, int64_t n, int64_t k, const T* a, BlasOperand oa, const T* b, BlasOperand ob, T* c) {
    if constexpr (IsComplexType<T>::value)
        gemm(complex_op(oa), complex_op(ob), m, n, k, T(1), a, oa.ld, b, ob.ld, T(0), c, n);
    else
        gemm(oa.trans, ob.trans, m, n, k, T(1), a, oa.ld, b, ob.ld, T(0), c, n);
}

// c[m, n] (contiguous) = a @ b for integer types: any strides; products wrap like C unsigned arithmetic.
template <typename T>
void naive_gemm(int64_t m, int64_t n, int64_t k, const T* a, int64_t ars, int64_t acs, const T* b, int64_t brs,
                int64_t bcs, T* c) {
    parallel_for(m, std::max<int64_t>(1, 16384 / std::max<int64_t>(n * k, 1)), [&](int64_t i0, int64_t i1) {
        std::vector<uint64_t> row((size_t)n);
        for (int64_t i = i0; i < i1; ++i) {
            std::fill(row.begin(), row.end(), 0);
            for (int64_t p = 0; p < k; ++p) {
                uint64_t av = (uint64_t)(int64_t)a[i * ars + p * acs];
                const T* bp = b + p * brs;
                for (int64_t j = 0; j < n; ++j) row[j] += av * (uint64_t)(int64_t)bp[j * bcs];
            }
            for (int64_t j = 0; j < n; ++j) c[i * n + j] = (T)row[j];
        }
    });
}

// A contiguous copy of t (same dtype, no autograd).
Tensor dense_copy(const Tensor& t) {
    Tensor c = empty_tensor(t.sizes(), t.dtype(), t.device());
    cpu_copy(c, t);
    return c;
}

// Batch dims of t (all but the last two) aligned to batch shape bs, with stride 0 where t broadcasts.
Shape batch_strides(const Tensor& t, const Shape& bs) {
    int64_t tb = t.dim() - 2, nb = (int64_t)bs.size();
    Shape st(nb, 0);
    for (int64_t i = 0; i < tb; ++i)
        if (t.sizes()[i] != 1) st[nb - tb + i] = t.strides()[i];
    return st;
}

// Element offset of batch i (row-major over bs) given per-dim batch strides.
int64_t batch_offset(int64_t i, const Shape& bs, const Shape& st) {
    int64_t off = 0;
    for (int64_t d = (int64_t)bs.size() - 1; d >= 0; --d) {
        off += (i % bs[d]) * st[d];
        i /= bs[d];
    }
    return off;
}

// True when rows of all batches of a (batch strides ast, row stride rs) form one strided run of rows,
// so the batch can be folded into m: each batch stride equals the next inner extent.
bool foldable(const Shape& bs, const Shape& ast, int64_t m, int64_t rs) {
    int64_t expect = m * rs;
    for (int64_t i = (int64_t)bs.size() - 1; i >= 0; --i) {
        if (bs[i] == 1) continue;
        if (ast[i] != expect) return false;
        expect *= bs[i];
    }
    return true;
}

// out[bs..., m, n] = a[..., m, k] @ b[..., k, n] (a and b have >= 2 dims, shapes already checked); conj_a /
// conj_b (complex only) use conj(a) / conj(b) instead.
Tensor mm_kernel(Tensor a, Tensor b, const Shape& bs, bool conj_a, bool conj_b) {
    const int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
    Shape os = bs;
    os.push_back(m);
    os.push_back(n);
    Tensor out = empty_tensor(os, a.dtype(), a.device());
    if (!a.device().is_cpu()) {
        cuda_matmul_into("matmul", out, a, b, bs, 0.0);
        return out;
    }
    if (out.numel() == 0) return out;
    if (k == 0) {
        cpu_fill(out, 0.0);
        return out;
    }
    const bool blas = is_floating(a.dtype()) || is_complex(a.dtype());
    BlasOperand oa, ob;
    if (blas && !blas_operand(m, k, a.stride(-2), a.stride(-1), oa)) a = dense_copy(a), blas_operand(m, k, k, 1, oa);
    if (blas && !blas_operand(k, n, b.stride(-2), b.stride(-1), ob)) b = dense_copy(b), blas_operand(k, n, n, 1, ob);
    if (blas && (m > INT_MAX || n > INT_MAX || k > INT_MAX))
        fail(CT_ERR_NOT_SUPPORTED, "matmul: dims m=", m, ", n=", n, ", k=", k, " exceed the BLAS int range");
    oa.conj = conj_a, ob.conj = conj_b;
    Shape ast = batch_strides(a, bs), bst = batch_strides(b, bs);
    int64_t batches = 1;
    bool b_shared = true;
    for (size_t i = 0; i < bs.size(); ++i) batches *= bs[i], b_shared = b_shared && (bs[i] == 1 || bst[i] == 0);
    auto run = [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same<T, bool>::value) {
            fail(CT_ERR_DTYPE, "matmul: bool tensors are not supported");
        } else if constexpr (std::is_floating_point<T>::value || IsComplexType<T>::value) {
            const T *pa = a.data<T>(), *pb = b.data<T>();
            T* pc = out.data<T>();
            if (batches > 1 && b_shared && !oa.trans && foldable(bs, ast, m, oa.ld)) {
                blas_gemm<T>(batches * m, n, k, pa, oa, pb, ob, pc);  // one big gemm (e.g. a linear layer)
                return;
            }
            for (int64_t i = 0; i < batches; ++i) {
                int64_t offa = batch_offset(i, bs, ast), offb = batch_offset(i, bs, bst);
                blas_gemm<T>(m, n, k, pa + offa, oa, pb + offb, ob, pc + i * m * n);
            }
        } else {
            const T *pa = a.data<T>(), *pb = b.data<T>();
            for (int64_t i = 0; i < batches; ++i)
                naive_gemm<T>(m, n, k, pa + batch_offset(i, bs, ast), a.stride(-2), a.stride(-1),
                              pb + batch_offset(i, bs, bst), b.stride(-2), b.stride(-1), out.data<T>() + i * m * n);
        }
    };
    if (is_complex(a.dtype())) dispatch_complex(a.dtype(), run);
    else dispatch_all(a.dtype(), run);
    return out;
}

Shape batch_shape(const Tensor& t) { return Shape(t.sizes().begin(), t.sizes().end() - 2); }

// The recorded primitive: a and b have >= 2 dims; ca / cb (complex only) conjugate a / b first, so that
// out = A' @ B' with A' = ca ? conj(a) : a. Backward: g @ B'^T and A'^T @ g for real dtypes, summed over
// broadcast dims. Complex (Note [Complex gradients]): grad A' = g @ B'^H, grad a = ca ? conj(grad A') : grad A',
// i.e. g @ op(b)^T with op = conj when ca == cb (== !cb unless ca); grad B' = A'^H @ g likewise. Every
// conjugation is a BLAS flag (CblasConjTrans / CblasConjNoTrans), never a copy.
Tensor mm_op(const Tensor& a, const Tensor& b, bool ca, bool cb) {
    Shape bs = broadcast_shapes("matmul", batch_shape(a), batch_shape(b));
    Tensor out = mm_kernel(a, b, bs, ca, cb);
    if (!any_requires_grad({a, b})) return out;
    Shape sa = a.sizes(), sb = b.sizes();
    const bool cx = is_complex(a.dtype());
    const bool ga_ca = ca, ga_cb = cx && (ca != !cb), gb_ca = cx && (cb != !ca), gb_cb = cb;
    auto node = make_node("MatmulBackward", {a, b}, [=](BackwardCtx& c) -> TensorList {
        const Tensor& g = c.grads[0];
        Tensor a = c.saved(0), b = c.saved(1), ga, gb;
        if (c.needs(0)) ga = sum_to(mm_op(g, transpose(b, -1, -2), ga_ca, ga_cb), sa);
        if (c.needs(1)) {
            if (sb.size() == 2 && sa.size() > 2) {  // b shared by every batch: one gemm over the folded rows
                int64_t rows = 1, k = sa.back(), n = sb.back();
                for (size_t i = 0; i + 1 < sa.size(); ++i) rows *= sa[i];
                gb = mm_op(transpose(reshape(a, {rows, k}), 0, 1), reshape(g, {rows, n}), gb_ca, gb_cb);
            } else {
                gb = sum_to(mm_op(transpose(a, -1, -2), g, gb_ca, gb_cb), sb);
            }
        }
        return {ga, gb};
    });
    node->save(a);
    node->save(b);
    set_history(out, node);
    return out;
}

void check_matmul_args(const Tensor& a, const Tensor& b) {
    check_same_device("matmul", a, b);
    if (a.dim() == 0 || b.dim() == 0)
        fail(CT_ERR_SHAPE, "matmul: both arguments need at least 1 dim, got shapes ", shape_str(a.sizes()), " and ",
             shape_str(b.sizes()));
    if (a.dtype() != b.dtype())
        fail(CT_ERR_DTYPE, "matmul: expected both operands to have the same dtype, got ", dtype_name(a.dtype()),
             " and ", dtype_name(b.dtype()));
    if (a.dtype() == DType::Bool) fail(CT_ERR_DTYPE, "matmul: bool tensors are not supported");
    int64_t ka = a.size(-1), kb = b.dim() == 1 ? b.size(0) : b.size(-2);
    if (ka != kb)
        fail(CT_ERR_SHAPE, "matmul: shapes ", shape_str(a.sizes()), " and ", shape_str(b.sizes()),
             " cannot be multiplied (", ka, " != ", kb, ")");
    Shape ba(a.sizes().begin(), a.sizes().end() - std::min<int64_t>(a.dim(), 2));
    Shape bb(b.sizes().begin(), b.sizes().end() - std::min<int64_t>(b.dim(), 2));
    for (size_t i = 0; i < std::min(ba.size(), bb.size()); ++i) {
        int64_t x = ba[ba.size() - 1 - i], y = bb[bb.size() - 1 - i];
        if (x != y && x != 1 && y != 1)
            fail(CT_ERR_SHAPE, "matmul: shapes ", shape_str(a.sizes()), " and ", shape_str(b.sizes()),
                 " have batch dims that cannot be broadcast (", x, " vs ", y, ")");
    }
}

void check_vector(const char* op, const Tensor& t) {
    if (t.dim() != 1) fail(CT_ERR_SHAPE, op, ": expected 1-D tensors, got shape ", shape_str(t.sizes()));
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
    check_matmul_args(a, b);
    // Note [Half compute]: per-block float32 sgemm would be faster on the CPU; on CUDA half operands go to cuBLAS
    // as they are (GemmEx, float32 accumulation: Note [Half on CUDA])
    if (is_half(a.dtype()) && a.device().is_cpu())
        return round_to_half(matmul(half_to_float32(a), half_to_float32(b)), promote_types(a.dtype(), b.dtype()));
    // 1-D operands get a temporary dim (a: leading, b: trailing) that is removed from the result.
    Tensor out = mm_op(a.dim() == 1 ? unsqueeze(a, 0) : a, b.dim() == 1 ? unsqueeze(b, 1) : b, false, false);
    if (a.dim() == 1) out = squeeze(out, -2);
    if (b.dim() == 1) out = squeeze(out, -1);
    return out;
}

Tensor dot(const Tensor& a, const Tensor& b) {
    check_vector("dot", a);
    check_vector("dot", b);
    if (a.size(0) != b.size(0))
        fail(CT_ERR_SHAPE, "dot: expected both vectors to have the same number of elements, got shapes ",
             shape_str(a.sizes()), " and ", shape_str(b.sizes()));
    if (a.dtype() != b.dtype())
        fail(CT_ERR_DTYPE, "dot: expected both vectors to have the same dtype, got ", dtype_name(a.dtype()), " and ",
             dtype_name(b.dtype()));
    return matmul(a, b);
}

Tensor outer(const Tensor& a, const Tensor& b) {
    check_vector("outer", a);
    check_vector("outer", b);
    return mul(unsqueeze(a, 1), unsqueeze(b, 0));
}

}  // namespace ct
