/* abi/static_checks.c - freezes the ABI-visible layout and constants of include/ctensor.h at compile time:
 * the sizes and offsets of every exposed struct, the value of every enum constant and the callback types.
 * Built as part of the library build and compiled by CTest as C11 and C++ with gcc and clang, so changing a
 * frozen value fails. Append-only: a new constant gets a new line; an existing line never changes in 1.x. */
#include <stddef.h>
#include "ctensor.h"

#if defined(__cplusplus)
#define CT_FROZEN(cond) static_assert(cond, #cond)
#else
#define CT_FROZEN(cond) _Static_assert(cond, #cond)
#endif

/* Version macros: the ABI major never changes within libctensor.so.1. */
CT_FROZEN(CT_VERSION_MAJOR == 1);
CT_FROZEN(CT_ABI_VERSION == 1);
CT_FROZEN(CT_VERSION_MINOR >= 0);

/* Scalar typedefs that appear in signatures. */
CT_FROZEN(sizeof(ct_status) == 4);
CT_FROZEN(sizeof(ct_dtype) == 4);
CT_FROZEN((ct_status)-1 < 0); /* signed */
CT_FROZEN((ct_dtype)-1 < 0);
CT_FROZEN(sizeof(ct_tensor) == sizeof(void*));
CT_FROZEN(sizeof(ct_generator) == sizeof(void*));
CT_FROZEN(sizeof(ct_optimizer) == sizeof(void*));
CT_FROZEN(sizeof(ct_safetensors) == sizeof(void*));

/* struct ct_device, passed by value. */
CT_FROZEN(sizeof(ct_device) == 8);
CT_FROZEN(offsetof(ct_device, type) == 0);
CT_FROZEN(offsetof(ct_device, index) == 4);
CT_FROZEN(sizeof(((ct_device*)0)->type) == 4);
CT_FROZEN(sizeof(((ct_device*)0)->index) == 4);

/* Status codes. */
CT_FROZEN(CT_OK == 0);
CT_FROZEN(CT_ERR_INVALID_ARGUMENT == 1);
CT_FROZEN(CT_ERR_INVALID_HANDLE == 2);
CT_FROZEN(CT_ERR_SHAPE == 3);
CT_FROZEN(CT_ERR_DTYPE == 4);
CT_FROZEN(CT_ERR_DEVICE == 5);
CT_FROZEN(CT_ERR_INDEX == 6);
CT_FROZEN(CT_ERR_OUT_OF_MEMORY == 7);
CT_FROZEN(CT_ERR_NOT_COMPILED == 8);
CT_FROZEN(CT_ERR_NOT_SUPPORTED == 9);
CT_FROZEN(CT_ERR_AUTOGRAD == 10);
CT_FROZEN(CT_ERR_INTERNAL == 11);
CT_FROZEN(CT_ERR_CALLBACK == 12);
CT_FROZEN(CT_ERR_VERSION == 13);
CT_FROZEN(CT_ERR_IO == 14);
CT_FROZEN(CT_ERR_DISTRIBUTED == 15);

/* Dtypes. */
CT_FROZEN(CT_FLOAT32 == 0);
CT_FROZEN(CT_FLOAT64 == 1);
CT_FROZEN(CT_INT32 == 2);
CT_FROZEN(CT_INT64 == 3);
CT_FROZEN(CT_UINT8 == 4);
CT_FROZEN(CT_BOOL == 5);
CT_FROZEN(CT_FLOAT16 == 6);
CT_FROZEN(CT_BFLOAT16 == 7);
CT_FROZEN(CT_INT8 == 8);
CT_FROZEN(CT_INT16 == 9);
CT_FROZEN(CT_COMPLEX64 == 10);
CT_FROZEN(CT_COMPLEX128 == 11);

/* Device types (DLPack numbering). */
CT_FROZEN(CT_DEVICE_CPU == 1);
CT_FROZEN(CT_DEVICE_CUDA == 2);

/* Loss reductions. */
CT_FROZEN(CT_REDUCTION_NONE == 0);
CT_FROZEN(CT_REDUCTION_MEAN == 1);
CT_FROZEN(CT_REDUCTION_SUM == 2);
CT_FROZEN(CT_REDUCTION_BATCHMEAN == 3);
CT_FROZEN(CT_QR_REDUCED == 0);
CT_FROZEN(CT_QR_COMPLETE == 1);
CT_FROZEN(CT_QR_R == 2);
/* recurrent modes (issue 14) */
CT_FROZEN(CT_RNN_RELU == 0);
CT_FROZEN(CT_RNN_TANH == 1);
CT_FROZEN(CT_RNN_LSTM == 2);
CT_FROZEN(CT_RNN_GRU == 3);
/* dtype limit fields (issue 14's ct_finfo / ct_iinfo) */
CT_FROZEN(CT_FINFO_BITS == 0);
CT_FROZEN(CT_FINFO_EPS == 1);
CT_FROZEN(CT_FINFO_MAX == 2);
CT_FROZEN(CT_FINFO_MIN == 3);
CT_FROZEN(CT_FINFO_TINY == 4);
CT_FROZEN(CT_FINFO_RESOLUTION == 5);
CT_FROZEN(CT_IINFO_BITS == 0);
CT_FROZEN(CT_IINFO_MIN == 1);
CT_FROZEN(CT_IINFO_MAX == 2);
CT_FROZEN(CT_EMBEDDING_BAG_SUM == 0);
CT_FROZEN(CT_EMBEDDING_BAG_MEAN == 1);
CT_FROZEN(CT_EMBEDDING_BAG_MAX == 2);
CT_FROZEN(CT_INTERP_NEAREST == 0);
CT_FROZEN(CT_INTERP_NEAREST_EXACT == 1);
CT_FROZEN(CT_INTERP_LINEAR == 2);
CT_FROZEN(CT_INTERP_BICUBIC == 3);
CT_FROZEN(CT_INTERP_AREA == 4);
/* ct_meshgrid indexing and ct_quantile interpolation (issue 14) */
CT_FROZEN(CT_MESHGRID_IJ == 0);
CT_FROZEN(CT_MESHGRID_XY == 1);
CT_FROZEN(CT_QUANTILE_LINEAR == 0);
CT_FROZEN(CT_QUANTILE_LOWER == 1);
CT_FROZEN(CT_QUANTILE_HIGHER == 2);
CT_FROZEN(CT_QUANTILE_MIDPOINT == 3);
CT_FROZEN(CT_QUANTILE_NEAREST == 4);
CT_FROZEN(CT_LSTSQ_GELSY == 0);
CT_FROZEN(CT_LSTSQ_GELS == 1);
CT_FROZEN(CT_LSTSQ_GELSD == 2);
CT_FROZEN(CT_LSTSQ_GELSS == 3);
CT_FROZEN(CT_SCATTER_SUM == 0);
CT_FROZEN(CT_SCATTER_PROD == 1);
CT_FROZEN(CT_SCATTER_MEAN == 2);
CT_FROZEN(CT_SCATTER_AMAX == 3);
CT_FROZEN(CT_SCATTER_AMIN == 4);
/* autocast policies (issue 15) */
CT_FROZEN(CT_AUTOCAST_PASSTHROUGH == 0);
CT_FROZEN(CT_AUTOCAST_LOWER_PRECISION == 1);
CT_FROZEN(CT_AUTOCAST_FLOAT32 == 2);
CT_FROZEN(CT_AUTOCAST_PROMOTE == 3);

/* distributed reduce ops */
CT_FROZEN(CT_REDUCE_SUM == 0);
CT_FROZEN(CT_REDUCE_MEAN == 1);
CT_FROZEN(CT_REDUCE_MAX == 2);
CT_FROZEN(CT_REDUCE_MIN == 3);
CT_FROZEN(CT_REDUCE_PRODUCT == 4);

/* Callback types: assigning a function of the frozen signature fails to compile if a typedef changes. */
static void frozen_deleter(void* data, void* ctx) { (void)data; (void)ctx; }
static ct_status frozen_backward(void* ctx, const ct_tensor* grad_outputs, int32_t n_outputs,
                                 ct_tensor* grad_inputs, int32_t n_inputs) {
    (void)ctx; (void)grad_outputs; (void)n_outputs; (void)grad_inputs; (void)n_inputs;
    return CT_OK;
}
static void frozen_ctx_release(void* ctx) { (void)ctx; }

/* Referenced so the translation unit is not empty and the assignments above are type-checked. */
int ct_abi_static_checks_anchor(void);
int ct_abi_static_checks_anchor(void) {
    ct_deleter_fn deleter = frozen_deleter;
    ct_backward_fn backward = frozen_backward;
    ct_ctx_release_fn ctx_release = frozen_ctx_release;
    return deleter != NULL && backward != NULL && ctx_release != NULL;
}
