// capi_sort.cpp - C API: sorting and selection (sort, argsort, topk, kthvalue, unique), cumprod, reordering
// (flip, roll, tril, triu) and einsum.
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

namespace {
// Both out-pointers checked first; set_tensor_outs writes both or neither.
void set_pair(const std::pair<Tensor, Tensor>& r, ct_tensor* values, ct_tensor* indices) {
    set_tensor_outs({{r.first, values}, {r.second, indices}});
}
}  // namespace

extern "C" {

ct_status ct_sort(ct_tensor x, int64_t dim, int32_t descending, int32_t stable, ct_tensor* values,
                  ct_tensor* indices) {
    (void)stable;  // always stable (Note [NaN order] in sort.cpp)
    return guard([&] {
        check_out(values, "sort", "values");
        check_out(indices, "sort", "indices");
        set_pair(sort(get_tensor(x, "sort", "x"), dim, descending != 0), values, indices);
    });
}

ct_status ct_argsort(ct_tensor x, int64_t dim, int32_t descending, int32_t stable, ct_tensor* out) {
    (void)stable;
    return guard([&] {
        check_out(out, "argsort");
        *out = new_tensor_handle(argsort(get_tensor(x, "argsort", "x"), dim, descending != 0));
    });
}

ct_status ct_topk(ct_tensor x, int64_t k, int64_t dim, int32_t largest, int32_t sorted, ct_tensor* values,
                  ct_tensor* indices) {
    (void)sorted;  // results are always sorted, which satisfies sorted == 0 too
    return guard([&] {
        check_out(values, "topk", "values");
        check_out(indices, "topk", "indices");
        set_pair(topk(get_tensor(x, "topk", "x"), k, dim, largest != 0), values, indices);
    });
}

ct_status ct_kthvalue(ct_tensor x, int64_t k, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices) {
    return guard([&] {
        check_out(values, "kthvalue", "values");
        check_out(indices, "kthvalue", "indices");
        set_pair(kthvalue(get_tensor(x, "kthvalue", "x"), k, dim, keepdim != 0), values, indices);
    });
}

ct_status ct_unique(ct_tensor x, int32_t sorted, ct_tensor* values, ct_tensor* inverse, ct_tensor* counts) {
    return guard([&] {
        check_out(values, "unique", "values");
        UniqueResult r = unique(get_tensor(x, "unique", "x"), sorted != 0);
        set_tensor_outs({{r.values, values}, {r.inverse, inverse}, {r.counts, counts}});
    });
}

ct_status ct_cumprod(ct_tensor x, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "cumprod");
        *out = new_tensor_handle(cumprod(get_tensor(x, "cumprod", "x"), dim));
    });
}

ct_status ct_flip(ct_tensor x, const int64_t* dims, int32_t ndims, ct_tensor* out) {
    return guard([&] {
        check_out(out, "flip");
        *out = new_tensor_handle(flip(get_tensor(x, "flip", "x"), shape_arg(dims, ndims, "flip", "dims")));
    });
}

ct_status ct_roll(ct_tensor x, const int64_t* shifts, int32_t nshifts, const int64_t* dims, int32_t ndims,
                  ct_tensor* out) {
    return guard([&] {
        check_out(out, "roll");
        *out = new_tensor_handle(roll(get_tensor(x, "roll", "x"), shape_arg(shifts, nshifts, "roll", "shifts"),
                                      shape_arg(dims, ndims, "roll", "dims")));
    });
}

ct_status ct_tril(ct_tensor x, int64_t diagonal, ct_tensor* out) {
    return guard([&] {
        check_out(out, "tril");
        *out = new_tensor_handle(tril(get_tensor(x, "tril", "x"), diagonal));
    });
}

ct_status ct_triu(ct_tensor x, int64_t diagonal, ct_tensor* out) {
    return guard([&] {
        check_out(out, "triu");
        *out = new_tensor_handle(triu(get_tensor(x, "triu", "x"), diagonal));
    });
}

ct_status ct_einsum(const char* equation, const ct_tensor* operands, int32_t n, ct_tensor* out) {
    return guard([&] {
        check_out(out, "einsum");
        if (!equation) fail(CT_ERR_INVALID_ARGUMENT, "einsum: equation is NULL");
        *out = new_tensor_handle(einsum(equation, tensor_list_arg(operands, n, "einsum", "operands")));
    });
}

}  // extern "C"
