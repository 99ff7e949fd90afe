// checked_math.h - the one overflow-checked helper for sizes, strides, offsets and byte counts derived from
// caller input (DESIGN.md rule 9): int64 products and sums that fail with a message naming the op and the values
// instead of wrapping, the element count of a shape, contiguous strides and byte sizes.
#pragma once
#include <cstdint>
#include <vector>
#include "core/error.h"

namespace ct {

// Note [Shape bound]: a shape is valid when its sizes are non-negative and the product of max(size, 1) fits
// int64. Its element count then fits, its contiguous strides fit, and so does every in-range index * stride of a
// view of it, so view arithmetic stays in int64 even for empty tensors ([0, 2^40, 2^40] is refused, as PyTorch
// refuses [2^40, 2^40, 0]).

// a * b, or false when it does not fit int64.
inline bool mul_fits(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
// a + b, or false when it does not fit int64.
inline bool add_fits(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }

// a * b; throws `status` ("op: what a * b overflows int64") when it does not fit.
inline int64_t checked_mul(int64_t a, int64_t b, const char* op, const char* what,
                           ct_status status = CT_ERR_SHAPE) {
    int64_t r;
    if (!mul_fits(a, b, &r)) fail(status, op, ": ", what, " ", a, " * ", b, " overflows int64");
    return r;
}

// a + b; throws `status` ("op: what a + b overflows int64") when it does not fit.
inline int64_t checked_add(int64_t a, int64_t b, const char* op, const char* what,
                           ct_status status = CT_ERR_SHAPE) {
    int64_t r;
    if (!add_fits(a, b, &r)) fail(status, op, ": ", what, " ", a, " + ", b, " overflows int64");
    return r;
}

// Element count of sizes (Note [Shape bound]); throws CT_ERR_INVALID_ARGUMENT on a negative size and CT_ERR_SHAPE
// when the sizes multiply past int64. op names the caller.
int64_t checked_numel(const std::vector<int64_t>& sizes, const char* op);

// Row-major contiguous strides of sizes (sizes of 0 count as 1); sizes must satisfy Note [Shape bound].
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& sizes);

// The element offsets of the lowest and highest element of a layout, relative to its first element (both 0 for
// an empty shape); throws CT_ERR_INVALID_ARGUMENT naming op when they do not fit int64.
struct Span {
    int64_t lo = 0, hi = 0;
};
Span checked_span(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides, const char* op);

// numel * itemsize in bytes; throws `status` naming op when it does not fit int64.
inline int64_t checked_nbytes(int64_t numel, int64_t itemsize, const char* op,
                              ct_status status = CT_ERR_OUT_OF_MEMORY) {
    return checked_mul(numel, itemsize, op, "byte size", status);
}

}  // namespace ct
