/* ctj_resample.h - JNI-side wrapper of ct_interpolate (issue 14's resampling): the size arrives as a long[] (null
 * for none) and up to three scale factors as doubles with their count (0 for none), so no double[] typemap is
 * needed and nothing is read past the Java array. */
#ifndef CTJ_RESAMPLE_H
#define CTJ_RESAMPLE_H
#include <ctensor.h>

/* ct_interpolate with size = shape[0..ndim) (shape NULL: none) or scale factors f0..f2 (the first nscales). */
ct_status ctj_interpolate(ct_tensor x, const int64_t* shape, int32_t ndim, double f0, double f1, double f2,
                          int32_t nscales, int32_t mode, int32_t align_corners, int32_t recompute_scale_factor,
                          ct_tensor* out);

#endif
