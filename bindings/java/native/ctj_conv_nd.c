/* ctj_conv_nd.c - see ctj_conv_nd.h. A bad count is passed on as rank 0, so the C call fails with its own message
 * naming the op (and reads no array). */
#include "ctj_conv_nd.h"

/* The spatial rank of a packed array of ndims = parts * N values, or 0 when ndims does not split so. */
static int32_t rank_of(int32_t ndims, int32_t parts) {
    return ndims > 0 && ndims % parts == 0 && ndims / parts <= 3 ? ndims / parts : 0;
}

ct_status ctj_convolution(ct_tensor x, ct_tensor weight, ct_tensor bias, const int64_t* dims, int32_t ndims,
                          int32_t transposed, int64_t groups, ct_tensor* out) {
    const int32_t n = rank_of(ndims, 4);
    if (n == 0) return ct_convolution(x, weight, bias, NULL, NULL, NULL, 0, transposed, NULL, groups, out);
    return ct_convolution(x, weight, bias, dims, dims + n, dims + 2 * n, n, transposed, dims + 3 * n, groups, out);
}

ct_status ctj_max_pool_nd(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t ceil_mode, ct_tensor* out,
                          ct_tensor* indices_out) {
    const int32_t n = rank_of(ndims, 4);
    if (n == 0) return ct_max_pool_nd(x, 0, NULL, NULL, NULL, NULL, ceil_mode, out, indices_out);
    return ct_max_pool_nd(x, n, dims, dims + n, dims + 2 * n, dims + 3 * n, ceil_mode, out, indices_out);
}

ct_status ctj_avg_pool_nd(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t ceil_mode,
                          int32_t count_include_pad, int64_t divisor_override, ct_tensor* out) {
    const int32_t n = rank_of(ndims, 3);
    if (n == 0) return ct_avg_pool_nd(x, 0, NULL, NULL, NULL, ceil_mode, count_include_pad, divisor_override, out);
    return ct_avg_pool_nd(x, n, dims, dims + n, dims + 2 * n, ceil_mode, count_include_pad, divisor_override, out);
}

ct_status ctj_adaptive_avg_pool_nd(ct_tensor x, const int64_t* shape, int32_t ndim, ct_tensor* out) {
    return ct_adaptive_avg_pool_nd(x, ndim >= 1 && ndim <= 3 ? ndim : 0, shape, out);
}

ct_status ctj_adaptive_max_pool_nd(ct_tensor x, const int64_t* shape, int32_t ndim, ct_tensor* out,
                                   ct_tensor* indices_out) {
    return ct_adaptive_max_pool_nd(x, ndim >= 1 && ndim <= 3 ? ndim : 0, shape, out, indices_out);
}
