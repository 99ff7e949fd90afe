/* ctj_resample.c - see ctj_resample.h. A rank outside 1..3 is passed on as 0 (with no arrays), so the C call fails
 * with its own message naming the op. */
#include "ctj_resample.h"

ct_status ctj_interpolate(ct_tensor x, const int64_t* shape, int32_t ndim, double f0, double f1, double f2,
                          int32_t nscales, int32_t mode, int32_t align_corners, int32_t recompute_scale_factor,
                          ct_tensor* out) {
    const double f[3] = {f0, f1, f2};
    const int32_t n = shape ? ndim : nscales;
    const int ok = n >= 1 && n <= 3 && nscales <= 3;  /* both given: passed on, and refused by the library */
    return ct_interpolate(x, ok && shape ? shape : NULL, ok && nscales > 0 ? f : NULL, ok ? n : 0, mode,
                          align_corners, recompute_scale_factor, out);
}
