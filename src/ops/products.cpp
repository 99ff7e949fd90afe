// products.cpp - kron, tensordot and inner (issue 14): composites of reshape / permute / mul / matmul / sum, so
// their gradients (and double backward) are those of the ops they are built of. Shapes and errors as torch 1.13.
#include "core/checked_math.h"
#include "ops/elementwise.h"

namespace ct {

// kron: a viewed as [a0, 1, a1, 1, ...] times b as [1, b0, 1, b1, ...] (the shorter shape padded with leading
// ones), then each (a_i, b_i) pair merged. The result sizes are checked first: a zero size elsewhere keeps the
// element count small while a_i * b_i may still overflow.
Tensor kron(const Tensor& a, const Tensor& b) {
    check_same_device("kron", a, b);
    const int64_t nd = std::max(a.dim(), b.dim()), pa = nd - a.dim(), pb = nd - b.dim();
    Shape as(2 * nd, 1), bs(2 * nd, 1), rs(nd);
    for (int64_t i = 0; i < nd; ++i) {
        as[2 * i] = i >= pa ? a.sizes()[i - pa] : 1;
        bs[2 * i + 1] = i >= pb ? b.sizes()[i - pb] : 1;
        rs[i] = checked_mul(as[2 * i], bs[2 * i + 1], "kron", "result size");
    }
    checked_numel(rs, "kron");
    return reshape(mul(reshape(a, as), reshape(b, bs)), rs);
}

// tensordot: a's free dims then b's; contracted pairs must have equal sizes, or one of them 1 (torch sums the
// other one out first). a permuted to [free_a, contracted] and b to [contracted, free_b] meet in one matmul.
Tensor tensordot(const Tensor& a, const Tensor& b, const IntList& dims_a, const IntList& dims_b) {
    check_same_device("tensordot", a, b);
    if (dims_a.size() != dims_b.size())
        fail(CT_ERR_SHAPE, "tensordot: both dimension lists should have same length, got ", dims_a.size(), " and ",
             dims_b.size());
    if (a.dtype() != b.dtype())
        fail(CT_ERR_DTYPE, "tensordot: expected both operands to have the same dtype, got ", dtype_name(a.dtype()),
             " and ", dtype_name(b.dtype()));
    auto wrap_all = [](const Tensor& t, const IntList& dims) {
        std::vector<bool> seen(t.dim(), false);
        IntList out;
        for (int64_t d : dims) {
            if (t.dim() == 0)  // wrap_dim lets 0 and -1 through for a 0-d tensor; it has no dim to contract
                fail(CT_ERR_INDEX, "tensordot: dim ", d, " is out of range for a 0-d tensor");
            int64_t w = wrap_dim(d, t.dim(), "tensordot");
            if (seen[w])
                fail(CT_ERR_INVALID_ARGUMENT, "tensordot: dim ", d, " appears multiple times in the list of dims");
            seen[w] = true;
            out.push_back(w);
        }
        return out;
    };
    IntList da = wrap_all(a, dims_a), db = wrap_all(b, dims_b);
    Tensor ta = a, tb = b;
    for (size_t i = 0; i < da.size(); ++i) {
        int64_t sa = a.sizes()[da[i]], sb = b.sizes()[db[i]];
        if (sa == sb) continue;
        if (sa == 1) tb = sum(tb, {db[i]}, true);
        else if (sb == 1) ta = sum(ta, {da[i]}, true);
        else
            fail(CT_ERR_SHAPE, "tensordot: contracted dimensions need to match, but first has size ", sa, " in dim ",
                 dims_a[i], " and second has size ", sb, " in dim ", dims_b[i]);
    }
    IntList perm_a, perm_b(db.begin(), db.end());
    Shape out_shape;
    int64_t free_a = 1, free_b = 1, k = 1;
    std::vector<bool> ca(a.dim(), false), cb(b.dim(), false);
    // each product is checked: a zero size elsewhere keeps numel small while these may overflow
    for (int64_t d : da) ca[d] = true, k = checked_mul(k, ta.sizes()[d], "tensordot", "contracted size");
    for (int64_t d : db) cb[d] = true;
    for (int64_t d = 0; d < a.dim(); ++d)
        if (!ca[d])
            perm_a.push_back(d), out_shape.push_back(a.sizes()[d]),
                free_a = checked_mul(free_a, a.sizes()[d], "tensordot", "free size");
    for (int64_t d = 0; d < b.dim(); ++d)
        if (!cb[d])
            perm_b.push_back(d), out_shape.push_back(b.sizes()[d]),
                free_b = checked_mul(free_b, b.sizes()[d], "tensordot", "free size");
    perm_a.insert(perm_a.end(), da.begin(), da.end());
    checked_numel(out_shape, "tensordot");
    Tensor m = matmul(reshape(permute(ta, perm_a), {free_a, k}), reshape(permute(tb, perm_b), {k, free_b}));
    return reshape(m, out_shape);
}

// inner: a * b when either is 0-d, else the contraction of both last dims.
Tensor inner(const Tensor& a, const Tensor& b) {
    check_same_device("inner", a, b);
    if (a.dim() == 0 || b.dim() == 0) return mul(a, b);
    if (a.size(-1) != b.size(-1))
        fail(CT_ERR_SHAPE, "inner: the last dimension must match on both input tensors but got shapes ",
             shape_str(a.sizes()), " and ", shape_str(b.sizes()));
    return tensordot(a, b, {-1}, {-1});
}

}  // namespace ct
