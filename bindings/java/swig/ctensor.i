/* ctensor.i - SWIG 4.1 (-java) interface: wraps include/ctensor.h (and nothing under src/) into the JNI class
 * org.ctensor.internal.CTJNI and the module class org.ctensor.internal.CT, with the "ct_" prefix stripped.
 * Handles are Java longs, a failed ct_status becomes a CTensorException at the JNI boundary, and the single
 * out-handle or out-scalar of a call is its Java return value. See ctj_typemaps.i for the conventions. */
%module CT

%{
#include <ctensor.h>
#include "ctj_support.h"
#include "ctj_conv_nd.h"
#include "ctj_resample.h"
%}

%pragma(java) jniclasscode=%{
  static { org.ctensor.internal.NativeLoader.load(); }
%}
%pragma(java) moduleclassmodifiers="public final class"
%pragma(java) jniclassclassmodifiers="public final class"

%include "ctj_typemaps.i"

%javaconst(1);
%rename("%(strip:[ct_])s") "";

/* ct_device is passed as one long (see ctj_typemaps.i); the struct itself is not wrapped. */
%ignore ct_device;
/* Replaced by hand-written wrappers in ctj_support.h that take Java callbacks or size their arrays. */
%ignore ct_custom_function_apply;
%ignore ct_tensor_register_hook;
%ignore ct_tensor_from_blob;
%ignore ct_tensor_item_complex; /* two double outs; Java reads complex values interleaved (Complex.toInterleaved) */
%ignore ct_autograd_grad;
/* Issue 14's rank-N arrays: replaced by ctj_conv_nd.h's packed-array wrappers. */
%ignore ct_convolution;
%ignore ct_max_pool_nd;
%ignore ct_avg_pool_nd;
%ignore ct_adaptive_avg_pool_nd;
%ignore ct_adaptive_max_pool_nd;
/* Resampling: replaced by ctj_resample.h's wrapper (its factors as doubles and a count). */
%ignore ct_interpolate;

#define CT_API
%include <ctensor.h>

/* ---- hand-written wrappers (ctj_support.h) ---- */
ct_status ctj_custom_function_apply(JNIEnv* env, const char* name, jlongArray inputs, jlongArray outputs,
                                    jobject backward, jlongArray results);
ct_status ctj_tensor_register_hook(JNIEnv* env, ct_tensor t, jobject hook, int64_t* id);
ct_status ctj_tensor_from_buffer(JNIEnv* env, jobject buffer, int64_t byte_offset, const int64_t* shape, int32_t ndim,
                                 ct_dtype dtype, ct_tensor* out);
ct_status ctj_autograd_grad(JNIEnv* env, jlongArray outputs, jlongArray grad_outputs, jlongArray inputs,
                            int32_t retain_graph, int32_t create_graph, int32_t allow_unused, jlongArray grads_out);
void ctj_dlpack_delete(int64_t managed);
void ctj_dlpack_versioned_delete(int64_t managed);

/* ---- issue 14: N-d convolution and pooling with packed arrays (ctj_conv_nd.h) ---- */
ct_status ctj_convolution(ct_tensor x, ct_tensor weight, ct_tensor bias, const int64_t* dims, int32_t ndims,
                          int32_t transposed, int64_t groups, ct_tensor* out);
ct_status ctj_max_pool_nd(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t ceil_mode, ct_tensor* out,
                          ct_tensor* indices_out);
ct_status ctj_avg_pool_nd(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t ceil_mode,
                          int32_t count_include_pad, int64_t divisor_override, ct_tensor* out);
ct_status ctj_adaptive_avg_pool_nd(ct_tensor x, const int64_t* shape, int32_t ndim, ct_tensor* out);
ct_status ctj_adaptive_max_pool_nd(ct_tensor x, const int64_t* shape, int32_t ndim, ct_tensor* out,
                                   ct_tensor* indices_out);

/* ---- issue 14: resampling (ctj_resample.h) ---- */
ct_status ctj_interpolate(ct_tensor x, const int64_t* shape, int32_t ndim, double f0, double f1, double f2,
                          int32_t nscales, int32_t mode, int32_t align_corners, int32_t recompute_scale_factor,
                          ct_tensor* out);
