/* ctj_conv_nd.h - JNI-side wrappers of issue 14's rank-N calls (N-d convolution and pooling): their arrays of
 * N values arrive packed in one long[] (dims, ndims), so SWIG's {h, w} typemaps (exactly two values) do not apply
 * and nothing is read past the Java array: each wrapper checks ndims against the count it splits into. */
#ifndef CTJ_CONV_ND_H
#define CTJ_CONV_ND_H
#include <ctensor.h>

/* dims = stride ++ padding ++ dilation ++ output_padding (4 * N values, N = 1..3). */
ct_status ctj_convolution(ct_tensor x, ct_tensor weight, ct_tensor bias, const int64_t* dims, int32_t ndims,
                          int32_t transposed, int64_t groups, ct_tensor* out);
/* dims = kernel ++ stride ++ padding ++ dilation (4 * N values). */
ct_status ctj_max_pool_nd(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t ceil_mode, ct_tensor* out,
                          ct_tensor* indices_out);
/* dims = kernel ++ stride ++ padding (3 * N values). */
ct_status ctj_avg_pool_nd(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t ceil_mode,
                          int32_t count_include_pad, int64_t divisor_override, ct_tensor* out);
/* shape = the output size (N values). */
ct_status ctj_adaptive_avg_pool_nd(ct_tensor x, const int64_t* shape, int32_t ndim, ct_tensor* out);
ct_status ctj_adaptive_max_pool_nd(ct_tensor x, const int64_t* shape, int32_t ndim, ct_tensor* out,
                                   ct_tensor* indices_out);

#endif
