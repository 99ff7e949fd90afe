// capi_indexing.cpp - C API: index_select, gather, scatter, masks, nonzero, cat, stack, split and chunk.
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

namespace {

// Makes the first cap pieces of plan as new handles into outs and sets *n to the true count, which must fit
// int32 (checked before any piece is made). outs is written only once all of them exist (nothing leaks on failure).
void hand_out(const Tensor& x, const SplitPlan& plan, ct_tensor* outs, int32_t cap, int32_t* n, const char* op) {
    if (plan.count > INT32_MAX)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": ", plan.count, " pieces do not fit the int32 count");
    int64_t take = std::min<int64_t>(plan.count, cap);
    std::vector<Tensor> pieces;
    pieces.reserve((size_t)take);
    for (int64_t i = 0; i < take; ++i) pieces.push_back(split_piece(x, plan, i));
    std::vector<ct_tensor> made = new_tensor_handles(pieces);
    for (int64_t i = 0; i < take; ++i) outs[i] = made[(size_t)i];
    *n = (int32_t)plan.count;
}

void check_outs(ct_tensor* outs, int32_t cap, int32_t* n, const char* op) {
    check_out(n, op, "n");
    if (cap < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": capacity must be non-negative, got ", cap);
    if (cap > 0 && !outs) fail(CT_ERR_INVALID_ARGUMENT, op, ": outs is NULL but capacity is ", cap);
}

}  // namespace

extern "C" {

ct_status ct_index_select(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor* out) {
    return guard([&] {
        check_out(out, "index_select");
        *out = new_tensor_handle(
            index_select(get_tensor(x, "index_select", "x"), dim, get_tensor(index, "index_select", "index")));
    });
}

ct_status ct_gather(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor* out) {
    return guard([&] {
        check_out(out, "gather");
        *out = new_tensor_handle(gather(get_tensor(x, "gather", "x"), dim, get_tensor(index, "gather", "index")));
    });
}

ct_status ct_scatter(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, ct_tensor* out) {
    return guard([&] {
        check_out(out, "scatter");
        *out = new_tensor_handle(scatter(get_tensor(x, "scatter", "x"), dim, get_tensor(index, "scatter", "index"),
                                         get_tensor(src, "scatter", "src")));
    });
}

ct_status ct_scatter_add(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, ct_tensor* out) {
    return guard([&] {
        check_out(out, "scatter_add");
        *out = new_tensor_handle(scatter_add(get_tensor(x, "scatter_add", "x"), dim,
                                             get_tensor(index, "scatter_add", "index"),
                                             get_tensor(src, "scatter_add", "src")));
    });
}

ct_status ct_masked_fill(ct_tensor x, ct_tensor mask, double value, ct_tensor* out) {
    return guard([&] {
        check_out(out, "masked_fill");
        *out = new_tensor_handle(
            masked_fill(get_tensor(x, "masked_fill", "x"), get_tensor(mask, "masked_fill", "mask"), value));
    });
}

ct_status ct_masked_select(ct_tensor x, ct_tensor mask, ct_tensor* out) {
    return guard([&] {
        check_out(out, "masked_select");
        *out = new_tensor_handle(
            masked_select(get_tensor(x, "masked_select", "x"), get_tensor(mask, "masked_select", "mask")));
    });
}

ct_status ct_nonzero(ct_tensor x, ct_tensor* out) {
    return guard([&] {
        check_out(out, "nonzero");
        *out = new_tensor_handle(nonzero(get_tensor(x, "nonzero", "x")));
    });
}

ct_status ct_cat(const ct_tensor* tensors, int32_t n, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "cat");
        *out = new_tensor_handle(cat(tensor_list_arg(tensors, n, "cat", "tensors"), dim));
    });
}

ct_status ct_stack(const ct_tensor* tensors, int32_t n, int64_t dim, ct_tensor* out) {
    return guard([&] {
        check_out(out, "stack");
        *out = new_tensor_handle(stack(tensor_list_arg(tensors, n, "stack", "tensors"), dim));
    });
}

ct_status ct_split(ct_tensor x, int64_t split_size, int64_t dim, ct_tensor* outs, int32_t cap, int32_t* n) {
    return guard([&] {
        check_outs(outs, cap, n, "split");
        Tensor t = get_tensor(x, "split", "x");
        hand_out(t, split_plan(t, split_size, dim), outs, cap, n, "split");
    });
}

ct_status ct_chunk(ct_tensor x, int64_t chunks, int64_t dim, ct_tensor* outs, int32_t cap, int32_t* n) {
    return guard([&] {
        check_outs(outs, cap, n, "chunk");
        Tensor t = get_tensor(x, "chunk", "x");
        hand_out(t, chunk_plan(t, chunks, dim), outs, cap, n, "chunk");
    });
}

}  // extern "C"
