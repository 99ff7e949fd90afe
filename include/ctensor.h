/* ctensor.h - the one public C interface of ctensor (C89/C99/C++ compatible).
 *
 * ctensor is an eager tensor library with reverse-mode autograd. Everything a program can do goes
 * through the opaque handles and functions declared here.
 *
 * Tutorial
 * --------
 *   ct_tensor x = NULL, y = NULL, loss = NULL, g = NULL;
 *   int64_t shape[2] = {2, 3};
 *   float data[6] = {1, 2, 3, 4, 5, 6};
 *   if (ct_tensor_from_data(data, sizeof data, shape, 2, CT_FLOAT32, ct_cpu(), &x) != CT_OK)
 *       fprintf(stderr, "%s\n", ct_last_error());
 *   ct_tensor_set_requires_grad(x, 1);
 *   ct_mul(x, x, &y);                    (y = x * x, recorded for autograd)
 *   ct_sum(y, NULL, 0, 0, &loss);        (sum over all dims)
 *   ct_backward(loss, NULL, 0, 0);       (x.grad = 2 * x)
 *   ct_tensor_grad(x, &g);
 *   ct_tensor_release(g); ct_tensor_release(loss); ct_tensor_release(y); ct_tensor_release(x);
 *
 * Rules that hold for every function
 * ----------------------------------
 * Errors:    every fallible call returns ct_status (CT_OK == 0). On failure ct_last_error() gives a
 *            thread-local UTF-8 message naming the op and the shapes/dtypes/values involved, valid until
 *            the next ctensor call on that thread; out-parameters are left untouched. Nothing aborts
 *            the process on bad input: NULL or released handles, bad shapes, dims, indices all give a status.
 * Ownership: every handle returned through an out-parameter is a new reference that the caller must
 *            release (ct_*_release, NULL-safe, any thread). Inputs are never consumed. The library never
 *            hands out memory the caller must free(). ct_live_handles() counts live handles (leak tests).
 * Shapes:    sizes, strides (in elements, like DLPack) and offsets are int64_t; ndim is int32_t; there
 *            is no rank limit. Getters copy into caller buffers of a given capacity and report the true count.
 * Dims:      a dim argument may be negative (counted from the end, like Python).
 * Devices:   explicit. Every tensor lives on one device; mixing devices in an op is an error; moving is
 *            ct_to_device. Device types use DLPack's numbering (CPU = 1, CUDA = 2).
 * Autograd:  ops record a graph when grad mode is on (per thread) and an input requires grad.
 * Threads:   handles may be shared between threads; a tensor must not be written by one thread while
 *            another uses it. Errors and grad mode are per thread.
 * Versions:  a program built against 1.x runs against any later 1.y. Call ct_check_abi(CT_ABI_VERSION,
 *            CT_VERSION_MINOR) once at load. Declarations added after 1.0 sit under CT_VERSION_MINOR guards.
 */
#ifndef CTENSOR_H
#define CTENSOR_H

#include <stddef.h>
#include <stdint.h>

#define CT_VERSION_MAJOR 1
#define CT_VERSION_MINOR 0
#define CT_VERSION_PATCH 0
#define CT_ABI_VERSION 1

#if defined(_WIN32)
#define CT_API __declspec(dllimport)
#elif defined(CT_BUILDING_LIBRARY)
#define CT_API __attribute__((visibility("default")))
#else
#define CT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Handles (opaque, reference counted) ------------------------------------------------------ */

typedef struct ct_tensor_s* ct_tensor;       /* a tensor: layout + storage + autograd metadata */
typedef struct ct_generator_s* ct_generator; /* a seeded random number generator */
typedef struct ct_optimizer_s* ct_optimizer; /* an optimizer over an array of parameter tensors */
typedef struct ct_safetensors_s* ct_safetensors; /* named tensors with string metadata (a safetensors file) */

/* DLPack structs (declared in <dlpack/dlpack.h>); ctensor only passes pointers to them. */
struct DLManagedTensor;
struct DLManagedTensorVersioned;

/* ---- Status codes (fixed values, append-only) -------------------------------------------------- */

typedef int32_t ct_status;
enum {
    CT_OK = 0,                   /* success */
    CT_ERR_INVALID_ARGUMENT = 1, /* a bad argument value (NULL pointer, negative size, bad option) */
    CT_ERR_INVALID_HANDLE = 2,   /* a NULL, unknown or already released handle */
    CT_ERR_SHAPE = 3,            /* shapes that do not fit the op */
    CT_ERR_DTYPE = 4,            /* a dtype the op does not accept */
    CT_ERR_DEVICE = 5,           /* tensors on different devices, or an unusable device */
    CT_ERR_INDEX = 6,            /* a dim or index out of range */
    CT_ERR_OUT_OF_MEMORY = 7,    /* an allocation that could not be satisfied */
    CT_ERR_NOT_COMPILED = 8,     /* a feature (e.g. the CUDA backend) not built or not loadable */
    CT_ERR_NOT_SUPPORTED = 9,    /* a valid request this version does not implement */
    CT_ERR_AUTOGRAD = 10,        /* an autograd misuse (second backward, modified saved tensor, ...) */
    CT_ERR_INTERNAL = 11,        /* a bug in ctensor; the message says where */
    CT_ERR_CALLBACK = 12,        /* a user callback (custom backward) reported a failure */
    CT_ERR_VERSION = 13,         /* the library is older than, or incompatible with, the caller */
    CT_ERR_IO = 14,              /* a file that cannot be read or written, or is not a valid file of its format */
    CT_ERR_DISTRIBUTED = 15      /* a collective failed: a peer died or disagreed on shape/dtype, or timed out */
};

/* ---- Dtypes and devices (fixed values, append-only) -------------------------------------------- */

typedef int32_t ct_dtype;
enum {
    CT_FLOAT32 = 0, /* 32-bit IEEE float */
    CT_FLOAT64 = 1, /* 64-bit IEEE float */
    CT_INT32 = 2,   /* 32-bit signed integer */
    CT_INT64 = 3,   /* 64-bit signed integer */
    CT_UINT8 = 4,   /* 8-bit unsigned integer */
    CT_BOOL = 5,     /* boolean stored as one byte (0 or 1) */
    CT_FLOAT16 = 6,  /* 16-bit IEEE float (binary16); ops compute in float32 and round back (CPU and CUDA) */
    CT_BFLOAT16 = 7, /* bfloat16 (8 exponent, 7 mantissa bits); ops compute in float32 and round back (CPU, CUDA) */
    CT_INT8 = 8,     /* 8-bit signed integer */
    CT_INT16 = 9,    /* 16-bit signed integer */
    CT_COMPLEX64 = 10, /* complex: interleaved (real, imag) float32 pair, 8 bytes (C99 float complex); CPU only */
    CT_COMPLEX128 = 11 /* complex: interleaved (real, imag) float64 pair, 16 bytes (C99 double complex); CPU only */
};

enum {
    CT_DEVICE_CPU = 1, /* DLPack kDLCPU */
    CT_DEVICE_CUDA = 2 /* DLPack kDLCUDA */
};

/* A device: a DLPack device type and an index (0 for CPU). Passed by value. */
typedef struct ct_device {
    int32_t type;
    int32_t index;
} ct_device;

/* Loss reductions (fixed values). */
enum {
    CT_REDUCTION_NONE = 0, /* per-element losses */
    CT_REDUCTION_MEAN = 1, /* mean over elements (weighted mean for weighted losses) */
    CT_REDUCTION_SUM = 2,  /* sum over elements */
    CT_REDUCTION_BATCHMEAN = 3 /* sum divided by the input's dim 0 (ct_kl_div only) */
};

/* ---- Library, versions, errors, threads -------------------------------------------------------- */

/* Runtime version as major*10000 + minor*100 + patch. */
CT_API int32_t ct_version(void);
/* Runtime ABI major version (CT_ABI_VERSION of the library that is loaded). */
CT_API int32_t ct_abi_version(void);
/* CT_OK if the loaded library serves a client built with abi_major and needing minor >= min_minor. */
CT_API ct_status ct_check_abi(int32_t abi_major, int32_t min_minor);
/* Thread-local message of the last failure on this thread ("" if none); valid until the next call. */
CT_API const char* ct_last_error(void);
/* Thread-local status of the last failure on this thread (CT_OK if none). */
CT_API ct_status ct_last_status(void);
/* Static name of a status code, e.g. "CT_ERR_SHAPE"; "CT_ERR_UNKNOWN" for unknown values. */
CT_API const char* ct_status_name(ct_status status);
/* Sets this thread's error (for custom backward callbacks to report why they failed); returns status. */
CT_API ct_status ct_set_error(ct_status status, const char* message);
/* Static name of a dtype ("float32", ...); "unknown" for unknown values. */
CT_API const char* ct_dtype_name(ct_dtype dtype);
/* Size in bytes of one element of dtype (0 for unknown values). */
CT_API int32_t ct_dtype_size(ct_dtype dtype);
/* The CPU device {CT_DEVICE_CPU, 0}. */
CT_API ct_device ct_cpu(void);
/* The CUDA device {CT_DEVICE_CUDA, index}. */
CT_API ct_device ct_cuda(int32_t index);
/* Number of live handles of every kind (tensors, generators, optimizers, ...); 0 when nothing leaked. */
CT_API int64_t ct_live_handles(void);
/* Sets the thread budget shared by ctensor's parallel loops and BLAS (n >= 1). */
CT_API ct_status ct_set_num_threads(int32_t n);
/* The current thread budget. */
CT_API int32_t ct_get_num_threads(void);
/* Number of usable CUDA devices (0 when the backend, driver or GPU is missing). */
CT_API int32_t ct_cuda_device_count(void);
/* 1 if CUDA is usable; otherwise 0 and, when reason != NULL, the reason copied into reason[cap]. */
CT_API int32_t ct_cuda_is_available(char* reason, int32_t cap);
/* Waits until all queued work on CUDA device `device` has finished. */
CT_API ct_status ct_cuda_synchronize(int32_t device);
/* Caching-allocator statistics of CUDA device `device` in bytes (each out-pointer may be NULL). */
CT_API ct_status ct_cuda_memory_stats(int32_t device, int64_t* allocated, int64_t* reserved, int64_t* peak);
/* Returns the cached, unused blocks of every CUDA device to the driver. */
CT_API ct_status ct_cuda_empty_cache(void);
/* Caps the CPU memory held by tensors at bytes (-1 = no limit; the environment variable CTENSOR_MEMORY_LIMIT,
 * in bytes with an optional K/M/G suffix, sets the first value): beyond it allocations fail with
 * CT_ERR_OUT_OF_MEMORY, leaving inputs and the autograd graph as they were. */
CT_API ct_status ct_set_cpu_memory_limit(int64_t bytes);
/* CPU memory statistics in bytes (each out-pointer may be NULL): held by tensors now, kept in the caches of
 * freed blocks (this thread's small blocks and the shared large ones), and the limit (-1 = none). */
CT_API ct_status ct_cpu_memory_stats(int64_t* allocated, int64_t* cached, int64_t* limit);

/* ---- Tensor handles and metadata ---------------------------------------------------------------- */

/* Adds a reference to t and returns t (NULL-safe). */
CT_API ct_tensor ct_tensor_retain(ct_tensor t);
/* Drops a reference; frees the tensor at zero (NULL-safe, any thread; unknown handles are ignored). */
CT_API void ct_tensor_release(ct_tensor t);
/* Rank of t. */
CT_API ct_status ct_tensor_ndim(ct_tensor t, int32_t* ndim);
/* Copies at most cap sizes into dims; *ndim gets the true rank. */
CT_API ct_status ct_tensor_shape(ct_tensor t, int64_t* dims, int32_t cap, int32_t* ndim);
/* Copies at most cap strides (in elements) into strides; *ndim gets the true rank. */
CT_API ct_status ct_tensor_strides(ct_tensor t, int64_t* strides, int32_t cap, int32_t* ndim);
/* Offset of t's first element in its storage, in elements. */
CT_API ct_status ct_tensor_offset(ct_tensor t, int64_t* offset);
/* Number of elements. */
CT_API ct_status ct_tensor_numel(ct_tensor t, int64_t* numel);
/* Element dtype. */
CT_API ct_status ct_tensor_dtype(ct_tensor t, ct_dtype* dtype);
/* Device t lives on. */
CT_API ct_status ct_tensor_device(ct_tensor t, ct_device* device);
/* 1 if t's elements are laid out in row-major order without gaps. */
CT_API ct_status ct_tensor_is_contiguous(ct_tensor t, int32_t* contiguous);
/* Address of t's first element (storage base + offset); valid while t is alive. */
CT_API ct_status ct_tensor_data_ptr(ct_tensor t, void** data);
/* Version counter shared by t and its views; bumped by every in-place write. */
CT_API ct_status ct_tensor_version(ct_tensor t, int64_t* version);
/* 1 if a and b share storage (views of each other or of one base). */
CT_API ct_status ct_tensor_shares_storage(ct_tensor a, ct_tensor b, int32_t* shares);
/* PyTorch-like text of t ("tensor([[1., 2.]], requires_grad=True)") into buf[cap]; *len gets the full length. */
CT_API ct_status ct_tensor_to_string(ct_tensor t, char* buf, int64_t cap, int64_t* len);

/* ---- Creation ---------------------------------------------------------------------------------- */

/* Uninitialised tensor of the given shape, dtype and device (a bool tensor is all false: its bytes must be 0 or 1). */
CT_API ct_status ct_empty(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_tensor* out);
/* Tensor of zeros. */
CT_API ct_status ct_zeros(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_tensor* out);
/* Tensor of ones. */
CT_API ct_status ct_ones(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_tensor* out);
/* Tensor filled with value (converted to dtype). */
CT_API ct_status ct_full(const int64_t* shape, int32_t ndim, double value, ct_dtype dtype, ct_device device,
                         ct_tensor* out);
/* 0-d tensor holding value (converted to dtype). */
CT_API ct_status ct_scalar_tensor(double value, ct_dtype dtype, ct_device device, ct_tensor* out);
/* 0-d "wrapped number" for a language scalar: takes part in ops like a Python scalar (never upcasts a tensor). */
CT_API ct_status ct_wrapped_scalar(double value, int32_t is_integer, ct_tensor* out);
/* Values start, start+step, ... below end (above end for step < 0). */
CT_API ct_status ct_arange(double start, double end, double step, ct_dtype dtype, ct_device device, ct_tensor* out);
/* steps values evenly spaced from start to end inclusive. */
CT_API ct_status ct_linspace(double start, double end, int64_t steps, ct_dtype dtype, ct_device device,
                             ct_tensor* out);
/* n x m matrix with ones on the diagonal. */
CT_API ct_status ct_eye(int64_t n, int64_t m, ct_dtype dtype, ct_device device, ct_tensor* out);
/* Uninitialised tensor with t's shape, dtype and device (all false for bool, as ct_empty). */
CT_API ct_status ct_empty_like(ct_tensor t, ct_tensor* out);
/* Zeros with t's shape, dtype and device. */
CT_API ct_status ct_zeros_like(ct_tensor t, ct_tensor* out);
/* Ones with t's shape, dtype and device. */
CT_API ct_status ct_ones_like(ct_tensor t, ct_tensor* out);
/* value with t's shape, dtype and device. */
CT_API ct_status ct_full_like(ct_tensor t, double value, ct_tensor* out);
/* Copy of nbytes of host row-major data into a new contiguous tensor (nbytes must equal numel*itemsize). */
CT_API ct_status ct_tensor_from_data(const void* data, int64_t nbytes, const int64_t* shape, int32_t ndim,
                                     ct_dtype dtype, ct_device device, ct_tensor* out);
/* Called once when a wrapped external buffer is no longer used (from any thread). */
typedef void (*ct_deleter_fn)(void* data, void* ctx);
/* Zero-copy tensor over external memory; strides NULL means contiguous; deleter (may be NULL) runs when freed.
 * On failure the deleter is not called and the caller keeps the memory. Bool memory must hold only the bytes
 * 0 and 1 (checked here, and the caller keeps it so); ct_tensor_from_data copies any nonzero byte as 1. */
CT_API ct_status ct_tensor_from_blob(void* data, const int64_t* shape, const int64_t* strides, int32_t ndim,
                                     ct_dtype dtype, ct_device device, ct_deleter_fn deleter, void* ctx,
                                     ct_tensor* out);
/* Copies t's elements in row-major order to host dst (nbytes must equal numel*itemsize). */
CT_API ct_status ct_tensor_copy_to_host(ct_tensor t, void* dst, int64_t nbytes);
/* Value of a one-element tensor as double. */
CT_API ct_status ct_tensor_item(ct_tensor t, double* value);
/* Value of a one-element tensor as int64 (exact for integer dtypes; floats truncate, saturate, NaN gives 0). */
CT_API ct_status ct_tensor_item_int64(ct_tensor t, int64_t* value);

/* ---- Random numbers ---------------------------------------------------------------------------- */

/* New generator; the same seed gives the same numbers on every platform. */
CT_API ct_status ct_generator_new(uint64_t seed, ct_generator* out);
/* Adds a reference; returns g. */
CT_API ct_generator ct_generator_retain(ct_generator g);
/* Drops a reference (NULL-safe). */
CT_API void ct_generator_release(ct_generator g);
/* Resets g's state from seed. */
CT_API ct_status ct_generator_seed(ct_generator g, uint64_t seed);
/* Reseeds the default generator (used wherever a generator argument is NULL). */
CT_API ct_status ct_manual_seed(uint64_t seed);
/* Uniform [0, 1) floats; gen NULL uses the default generator. */
CT_API ct_status ct_rand(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_generator gen,
                         ct_tensor* out);
/* Standard normal floats. */
CT_API ct_status ct_randn(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_generator gen,
                          ct_tensor* out);
/* Uniform integers in [low, high). */
CT_API ct_status ct_randint(int64_t low, int64_t high, const int64_t* shape, int32_t ndim, ct_dtype dtype,
                            ct_device device, ct_generator gen, ct_tensor* out);
/* 0/1 draws with probabilities p (floating tensor in [0,1]); result has p's shape and dtype. */
CT_API ct_status ct_bernoulli(ct_tensor p, ct_generator gen, ct_tensor* out);
/* Random permutation of 0..n-1 (int64). */
CT_API ct_status ct_randperm(int64_t n, ct_device device, ct_generator gen, ct_tensor* out);

/* ---- Views and layout (share storage unless noted) ---------------------------------------------- */

/* View or copy with a new shape; one size may be -1. */
CT_API ct_status ct_reshape(ct_tensor t, const int64_t* shape, int32_t ndim, ct_tensor* out);
/* View with a new shape; fails when the strides do not allow it. */
CT_API ct_status ct_view(ct_tensor t, const int64_t* shape, int32_t ndim, ct_tensor* out);
/* Swaps dims d0 and d1. */
CT_API ct_status ct_transpose(ct_tensor t, int64_t d0, int64_t d1, ct_tensor* out);
/* Reorders dims: out dim i is t's dim perm[i]. */
CT_API ct_status ct_permute(ct_tensor t, const int64_t* perm, int32_t ndim, ct_tensor* out);
/* Removes dim if its size is 1. */
CT_API ct_status ct_squeeze(ct_tensor t, int64_t dim, ct_tensor* out);
/* Removes every size-1 dim. */
CT_API ct_status ct_squeeze_all(ct_tensor t, ct_tensor* out);
/* Inserts a size-1 dim at dim (in [-ndim-1, ndim]). */
CT_API ct_status ct_unsqueeze(ct_tensor t, int64_t dim, ct_tensor* out);
/* Broadcasts size-1 dims to shape (stride 0); -1 keeps a size; new leading dims allowed. */
CT_API ct_status ct_expand(ct_tensor t, const int64_t* shape, int32_t ndim, ct_tensor* out);
/* Merges dims start..end (inclusive) into one (a view when possible). */
CT_API ct_status ct_flatten(ct_tensor t, int64_t start_dim, int64_t end_dim, ct_tensor* out);
/* length elements of dim starting at start. */
CT_API ct_status ct_narrow(ct_tensor t, int64_t dim, int64_t start, int64_t length, ct_tensor* out);
/* Python slice start:end:step of dim (step > 0; start/end clamped like Python, negatives from the end). */
CT_API ct_status ct_slice(ct_tensor t, int64_t dim, int64_t start, int64_t end, int64_t step, ct_tensor* out);
/* Index index of dim, removing dim. */
CT_API ct_status ct_select(ct_tensor t, int64_t dim, int64_t index, ct_tensor* out);
/* View of the diagonal of dims dim1, dim2 (offset > 0 above, < 0 below the main one), appended as the last dim. */
CT_API ct_status ct_diagonal(ct_tensor t, int64_t offset, int64_t dim1, int64_t dim2, ct_tensor* out);
/* t itself (new handle) when contiguous, else a contiguous copy. */
CT_API ct_status ct_contiguous(ct_tensor t, ct_tensor* out);
/* A contiguous copy (differentiable). */
CT_API ct_status ct_clone(ct_tensor t, ct_tensor* out);
/* A view sharing storage but cut from the graph (requires_grad = 0). */
CT_API ct_status ct_detach(ct_tensor t, ct_tensor* out);
/* Converts to dtype (t itself when it already has it; differentiable between float dtypes). */
CT_API ct_status ct_to_dtype(ct_tensor t, ct_dtype dtype, ct_tensor* out);
/* Copies to device (t itself when already there); differentiable. */
CT_API ct_status ct_to_device(ct_tensor t, ct_device device, ct_tensor* out);

/* ---- Elementwise unary ops ---------------------------------------------------------------------- */

CT_API ct_status ct_neg(ct_tensor x, ct_tensor* out);        /* -x */
CT_API ct_status ct_abs(ct_tensor x, ct_tensor* out);        /* |x| */
CT_API ct_status ct_sign(ct_tensor x, ct_tensor* out);       /* -1, 0 or 1 */
CT_API ct_status ct_exp(ct_tensor x, ct_tensor* out);        /* e^x */
CT_API ct_status ct_log(ct_tensor x, ct_tensor* out);        /* natural log */
CT_API ct_status ct_log1p(ct_tensor x, ct_tensor* out);      /* log(1 + x) */
CT_API ct_status ct_expm1(ct_tensor x, ct_tensor* out);      /* e^x - 1 */
CT_API ct_status ct_sqrt(ct_tensor x, ct_tensor* out);       /* square root */
CT_API ct_status ct_rsqrt(ct_tensor x, ct_tensor* out);      /* 1 / sqrt(x) */
CT_API ct_status ct_sin(ct_tensor x, ct_tensor* out);        /* sine */
CT_API ct_status ct_cos(ct_tensor x, ct_tensor* out);        /* cosine */
CT_API ct_status ct_tan(ct_tensor x, ct_tensor* out);        /* tangent */
CT_API ct_status ct_tanh(ct_tensor x, ct_tensor* out);       /* hyperbolic tangent */
CT_API ct_status ct_sigmoid(ct_tensor x, ct_tensor* out);    /* 1 / (1 + e^-x) */
CT_API ct_status ct_relu(ct_tensor x, ct_tensor* out);       /* max(x, 0) */
CT_API ct_status ct_gelu(ct_tensor x, ct_tensor* out);       /* x * Phi(x) (exact erf form) */
CT_API ct_status ct_silu(ct_tensor x, ct_tensor* out);       /* x * sigmoid(x) */
CT_API ct_status ct_softplus(ct_tensor x, ct_tensor* out);   /* log(1 + e^x), stable */
CT_API ct_status ct_floor(ct_tensor x, ct_tensor* out);      /* round down (gradient 0) */
CT_API ct_status ct_ceil(ct_tensor x, ct_tensor* out);       /* round up (gradient 0) */
CT_API ct_status ct_round(ct_tensor x, ct_tensor* out);      /* round half to even (gradient 0) */
CT_API ct_status ct_reciprocal(ct_tensor x, ct_tensor* out); /* 1 / x */
CT_API ct_status ct_logical_not(ct_tensor x, ct_tensor* out);/* !x as bool */
/* x ** exponent. */
CT_API ct_status ct_pow_scalar(ct_tensor x, double exponent, ct_tensor* out);
/* Clamps to [min, max]; has_min / has_max say which bound applies. */
CT_API ct_status ct_clamp(ct_tensor x, double min, int32_t has_min, double max, int32_t has_max, ct_tensor* out);

/* ---- Elementwise binary ops (NumPy broadcasting, PyTorch type promotion) -------------------------- */

CT_API ct_status ct_add(ct_tensor a, ct_tensor b, double alpha, ct_tensor* out); /* a + alpha * b */
CT_API ct_status ct_sub(ct_tensor a, ct_tensor b, double alpha, ct_tensor* out); /* a - alpha * b */
CT_API ct_status ct_mul(ct_tensor a, ct_tensor b, ct_tensor* out);               /* a * b */
CT_API ct_status ct_div(ct_tensor a, ct_tensor b, ct_tensor* out);               /* a / b (true division) */
CT_API ct_status ct_pow(ct_tensor a, ct_tensor b, ct_tensor* out);               /* a ** b */
CT_API ct_status ct_maximum(ct_tensor a, ct_tensor b, ct_tensor* out);           /* elementwise max */
CT_API ct_status ct_minimum(ct_tensor a, ct_tensor b, ct_tensor* out);           /* elementwise min */
CT_API ct_status ct_atan2(ct_tensor a, ct_tensor b, ct_tensor* out);             /* atan(a / b), quadrant-aware */
CT_API ct_status ct_remainder(ct_tensor a, ct_tensor b, ct_tensor* out);         /* a mod b, sign of b (Python) */
CT_API ct_status ct_eq(ct_tensor a, ct_tensor b, ct_tensor* out);                /* a == b as bool */
CT_API ct_status ct_ne(ct_tensor a, ct_tensor b, ct_tensor* out);                /* a != b as bool */
CT_API ct_status ct_lt(ct_tensor a, ct_tensor b, ct_tensor* out);                /* a < b as bool */
CT_API ct_status ct_le(ct_tensor a, ct_tensor b, ct_tensor* out);                /* a <= b as bool */
CT_API ct_status ct_gt(ct_tensor a, ct_tensor b, ct_tensor* out);                /* a > b as bool */
CT_API ct_status ct_ge(ct_tensor a, ct_tensor b, ct_tensor* out);                /* a >= b as bool */
CT_API ct_status ct_logical_and(ct_tensor a, ct_tensor b, ct_tensor* out);       /* a && b as bool */
CT_API ct_status ct_logical_or(ct_tensor a, ct_tensor b, ct_tensor* out);        /* a || b as bool */
CT_API ct_status ct_logical_xor(ct_tensor a, ct_tensor b, ct_tensor* out);       /* a != b (as truth values) */
/* cond ? a : b, all three broadcast together (cond is bool). */
CT_API ct_status ct_where(ct_tensor cond, ct_tensor a, ct_tensor b, ct_tensor* out);

/* ---- Reductions (dims == NULL / ndims == 0 reduces over all dims) ------------------------------- */

/* Sum over dims. */
CT_API ct_status ct_sum(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out);
/* Arithmetic mean over dims. */
CT_API ct_status ct_mean(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out);
/* Product over dims. */
CT_API ct_status ct_prod(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out);
/* Variance with the given correction (1 = unbiased). */
CT_API ct_status ct_var(ct_tensor x, const int64_t* dims, int32_t ndims, double correction, int32_t keepdim,
                        ct_tensor* out);
/* Standard deviation with the given correction. */
CT_API ct_status ct_std(ct_tensor x, const int64_t* dims, int32_t ndims, double correction, int32_t keepdim,
                        ct_tensor* out);
/* log(sum(exp(x))), stable. */
CT_API ct_status ct_logsumexp(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out);
/* p-norm (p = 2 Euclidean, 1, inf via INFINITY, any p > 0). */
CT_API ct_status ct_norm(ct_tensor x, double p, const int64_t* dims, int32_t ndims, int32_t keepdim,
                         ct_tensor* out);
/* True where every element is nonzero (bool; uint8 for a uint8 input, as in PyTorch). */
CT_API ct_status ct_all(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out);
/* True where any element is nonzero (bool; uint8 for a uint8 input, as in PyTorch). */
CT_API ct_status ct_any(ct_tensor x, const int64_t* dims, int32_t ndims, int32_t keepdim, ct_tensor* out);
/* Largest element over all dims (0-d). */
CT_API ct_status ct_max(ct_tensor x, ct_tensor* out);
/* Smallest element over all dims (0-d). */
CT_API ct_status ct_min(ct_tensor x, ct_tensor* out);
/* Largest values along dim and their int64 indices (first occurrence). */
CT_API ct_status ct_max_dim(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices);
/* Smallest values along dim and their int64 indices (first occurrence). */
CT_API ct_status ct_min_dim(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices);
/* Index of the largest element along dim (int64). */
CT_API ct_status ct_argmax(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* out);
/* Index of the smallest element along dim (int64). */
CT_API ct_status ct_argmin(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* out);
/* Flat index of the largest element (0-d int64). */
CT_API ct_status ct_argmax_all(ct_tensor x, ct_tensor* out);
/* Flat index of the smallest element (0-d int64). */
CT_API ct_status ct_argmin_all(ct_tensor x, ct_tensor* out);
/* Cumulative sum along dim. */
CT_API ct_status ct_cumsum(ct_tensor x, int64_t dim, ct_tensor* out);

/* ---- Linear algebra ----------------------------------------------------------------------------- */

/* NumPy/PyTorch matmul: 1-D dot, 2-D matrix product, batched with broadcast batch dims. */
CT_API ct_status ct_matmul(ct_tensor a, ct_tensor b, ct_tensor* out);
/* Dot product of two 1-D tensors (0-d result). */
CT_API ct_status ct_dot(ct_tensor a, ct_tensor b, ct_tensor* out);
/* Outer product of two 1-D tensors. */
CT_API ct_status ct_outer(ct_tensor a, ct_tensor b, ct_tensor* out);
/* Transpose of a 2-D tensor (1-D and 0-D unchanged). */
CT_API ct_status ct_t(ct_tensor x, ct_tensor* out);

/* ---- Indexing and joining ----------------------------------------------------------------------- */

/* Entries of x at integer index (1-D) along dim. */
CT_API ct_status ct_index_select(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor* out);
/* out[i][j] = x[index[i][j]][j] for dim 0 (and so on); index has x's rank. */
CT_API ct_status ct_gather(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor* out);
/* Copy of x with src written at index along dim. */
CT_API ct_status ct_scatter(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, ct_tensor* out);
/* Copy of x with src added at index along dim. */
CT_API ct_status ct_scatter_add(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, ct_tensor* out);
/* Copy of x with value where mask (bool, broadcast to x) is true. */
CT_API ct_status ct_masked_fill(ct_tensor x, ct_tensor mask, double value, ct_tensor* out);
/* 1-D tensor of x's elements where mask (bool, broadcast) is true. */
CT_API ct_status ct_masked_select(ct_tensor x, ct_tensor mask, ct_tensor* out);
/* int64 [count, ndim] coordinates of x's nonzero elements. */
CT_API ct_status ct_nonzero(ct_tensor x, ct_tensor* out);
/* Concatenates n tensors along dim. */
CT_API ct_status ct_cat(const ct_tensor* tensors, int32_t n, int64_t dim, ct_tensor* out);
/* Stacks n same-shape tensors along a new dim. */
CT_API ct_status ct_stack(const ct_tensor* tensors, int32_t n, int64_t dim, ct_tensor* out);
/* Views of split_size elements along dim (the last may be smaller); at most cap into outs, *n the true count. */
CT_API ct_status ct_split(ct_tensor x, int64_t split_size, int64_t dim, ct_tensor* outs, int32_t cap, int32_t* n);
/* chunks views along dim (sizes like torch.chunk); at most cap into outs, *n the true count. */
CT_API ct_status ct_chunk(ct_tensor x, int64_t chunks, int64_t dim, ct_tensor* outs, int32_t cap, int32_t* n);

/* ---- Sorting, scans and reordering -------------------------------------------------------------- */

/* Sorts x along dim: values and their int64 positions; stable (ties keep input order) whatever `stable`
 * says, NaN sorts last ascending and first descending (like PyTorch). */
CT_API ct_status ct_sort(ct_tensor x, int64_t dim, int32_t descending, int32_t stable, ct_tensor* values,
                         ct_tensor* indices);
/* int64 positions that sort x along dim (the indices of ct_sort). */
CT_API ct_status ct_argsort(ct_tensor x, int64_t dim, int32_t descending, int32_t stable, ct_tensor* out);
/* The k largest (largest != 0) or smallest values along dim and their int64 positions; always sorted. */
CT_API ct_status ct_topk(ct_tensor x, int64_t k, int64_t dim, int32_t largest, int32_t sorted, ct_tensor* values,
                         ct_tensor* indices);
/* The k-th smallest value along dim (k counts from 1) and its int64 position. */
CT_API ct_status ct_kthvalue(ct_tensor x, int64_t k, int64_t dim, int32_t keepdim, ct_tensor* values,
                             ct_tensor* indices);
/* Distinct values of flattened x (sorted, else in order of first occurrence); inverse (x's shape) and counts
 * (int64) are filled when their pointers are not NULL. Not differentiable. */
CT_API ct_status ct_unique(ct_tensor x, int32_t sorted, ct_tensor* values, ct_tensor* inverse, ct_tensor* counts);
/* Cumulative product along dim (integers and bool give int64). */
CT_API ct_status ct_cumprod(ct_tensor x, int64_t dim, ct_tensor* out);
/* Copy of x with the order of elements reversed along each of dims[ndims]. */
CT_API ct_status ct_flip(ct_tensor x, const int64_t* dims, int32_t ndims, ct_tensor* out);
/* Rolls x by shifts[i] along dims[i]; with ndims == 0 rolls the flattened x by shifts[0] (nshifts == 1). */
CT_API ct_status ct_roll(ct_tensor x, const int64_t* shifts, int32_t nshifts, const int64_t* dims, int32_t ndims,
                         ct_tensor* out);
/* Lower triangle of the last two dims (j - i <= diagonal kept, the rest zero). */
CT_API ct_status ct_tril(ct_tensor x, int64_t diagonal, ct_tensor* out);
/* Upper triangle of the last two dims (j - i >= diagonal kept, the rest zero). */
CT_API ct_status ct_triu(ct_tensor x, int64_t diagonal, ct_tensor* out);
/* Einstein summation over operands[n] like torch.einsum ("ij,jk->ik", implicit output, ... broadcasting). */
CT_API ct_status ct_einsum(const char* equation, const ct_tensor* operands, int32_t n, ct_tensor* out);

/* ---- In-place ops (bump the version counter; dst keeps its dtype) ------------------------------- */

CT_API ct_status ct_add_(ct_tensor dst, ct_tensor b, double alpha); /* dst += alpha * b */
CT_API ct_status ct_sub_(ct_tensor dst, ct_tensor b, double alpha); /* dst -= alpha * b */
CT_API ct_status ct_mul_(ct_tensor dst, ct_tensor b);               /* dst *= b */
CT_API ct_status ct_div_(ct_tensor dst, ct_tensor b);               /* dst /= b */
CT_API ct_status ct_zero_(ct_tensor dst);                           /* dst = 0 */
CT_API ct_status ct_fill_(ct_tensor dst, double value);             /* dst = value */
/* Copies src (broadcast to dst, converted to dst's dtype) into dst, e.g. into a slice view. */
CT_API ct_status ct_copy_(ct_tensor dst, ct_tensor src);
/* Clamps dst in place. */
CT_API ct_status ct_clamp_(ct_tensor dst, double min, int32_t has_min, double max, int32_t has_max);

/* ---- Neural-network functions ------------------------------------------------------------------- */

/* x @ weight^T + bias (bias may be NULL); weight is [out_features, in_features]. */
CT_API ct_status ct_linear(ct_tensor x, ct_tensor weight, ct_tensor bias, ct_tensor* out);
/* softmax along dim. */
CT_API ct_status ct_softmax(ct_tensor x, int64_t dim, ct_tensor* out);
/* log(softmax) along dim, stable. */
CT_API ct_status ct_log_softmax(ct_tensor x, int64_t dim, ct_tensor* out);
/* Cross entropy of logits [N, C, d...] or [C]: integer targets [N, d...] (ignore_index skipped) or probabilities. */
CT_API ct_status ct_cross_entropy(ct_tensor logits, ct_tensor target, int32_t reduction, int64_t ignore_index,
                                  ct_tensor* out);
/* Negative log likelihood of log-probabilities [N, C, d...] (or [C]) and integer targets [N, d...]. */
CT_API ct_status ct_nll_loss(ct_tensor log_probs, ct_tensor target, int32_t reduction, int64_t ignore_index,
                             ct_tensor* out);
/* ct_cross_entropy with class weights [C] (NULL = none) and label smoothing in [0, 1], as torch's. */
CT_API ct_status ct_cross_entropy_ex(ct_tensor logits, ct_tensor target, ct_tensor weight, int32_t reduction,
                                     int64_t ignore_index, double label_smoothing, ct_tensor* out);
/* ct_nll_loss with class weights [C] (NULL = none); mean divides by the summed weights of the targets. */
CT_API ct_status ct_nll_loss_ex(ct_tensor log_probs, ct_tensor target, ct_tensor weight, int32_t reduction,
                                int64_t ignore_index, ct_tensor* out);
/* Mean squared error. */
CT_API ct_status ct_mse_loss(ct_tensor input, ct_tensor target, int32_t reduction, ct_tensor* out);
/* Binary cross entropy of probabilities in [0, 1]. */
CT_API ct_status ct_binary_cross_entropy(ct_tensor probs, ct_tensor target, int32_t reduction, ct_tensor* out);
/* Binary cross entropy of logits (stable). */
CT_API ct_status ct_binary_cross_entropy_with_logits(ct_tensor logits, ct_tensor target, int32_t reduction,
                                                     ct_tensor* out);
/* Zeroes elements with probability p and scales the rest by 1/(1-p) when training != 0; identity otherwise. */
CT_API ct_status ct_dropout(ct_tensor x, double p, int32_t training, ct_generator gen, ct_tensor* out);
/* Rows of weight [num, dim] at integer indices (any shape): result shape indices.shape + [dim]. */
CT_API ct_status ct_embedding(ct_tensor weight, ct_tensor indices, ct_tensor* out);
/* 2-D convolution, NCHW input [N,C,H,W], weight [O,C/groups,kH,kW], bias [O] or NULL; arrays are {h, w}. */
CT_API ct_status ct_conv2d(ct_tensor x, ct_tensor weight, ct_tensor bias, const int64_t* stride,
                           const int64_t* padding, const int64_t* dilation, int64_t groups, ct_tensor* out);
/* 2-D max pooling, NCHW; kernel, stride and padding are {h, w}. */
CT_API ct_status ct_max_pool2d(ct_tensor x, const int64_t* kernel, const int64_t* stride, const int64_t* padding,
                               ct_tensor* out);
/* 2-D average pooling, NCHW (padding counted in the divisor, like PyTorch's default). */
CT_API ct_status ct_avg_pool2d(ct_tensor x, const int64_t* kernel, const int64_t* stride, const int64_t* padding,
                               ct_tensor* out);
/* Max pooling options (torch's): dilation {h, w} and ceil_mode; the indices are documented below. */
/* ceil_mode != 0 rounds the output size up, but the last window must start inside the input or its left
   padding. *indices_out (when indices_out is not NULL) gets the int64 argmax of each output as a flat index
   h * W + w into its input plane (torch's return_indices); -1 for a window that holds only padding. */
/* 2-D max pooling with dilation, ceil_mode and optional argmax indices (see above). */
CT_API ct_status ct_max_pool2d_ex(ct_tensor x, const int64_t* kernel, const int64_t* stride, const int64_t* padding,
                                  const int64_t* dilation, int32_t ceil_mode, ct_tensor* out, ct_tensor* indices_out);
/* Average pooling options: count_include_pad = 0 divides by the input elements in the window only;
   divisor_override > 0 divides by it instead (0 = none). */
/* 2-D average pooling with ceil_mode, count_include_pad and divisor_override (see above). */
CT_API ct_status ct_avg_pool2d_ex(ct_tensor x, const int64_t* kernel, const int64_t* stride, const int64_t* padding,
                                  int32_t ceil_mode, int32_t count_include_pad, int64_t divisor_override,
                                  ct_tensor* out);
/* Adaptive pooling: output i of an axis of size n covers [floor(i * n / o), ceil((i + 1) * n / o)). */
/* Adaptive average pooling, NCHW or CHW, to output_size {oh, ow}. */
CT_API ct_status ct_adaptive_avg_pool2d(ct_tensor x, const int64_t* output_size, ct_tensor* out);
/* Adaptive max pooling (windows as ct_adaptive_avg_pool2d); *indices_out (when not NULL) as ct_max_pool2d_ex. */
CT_API ct_status ct_adaptive_max_pool2d(ct_tensor x, const int64_t* output_size, ct_tensor* out,
                                        ct_tensor* indices_out);

/* ---- Autograd ----------------------------------------------------------------------------------- */

/* Sets this thread's grad mode (0 = off); *previous (may be NULL) gets the old mode. */
CT_API ct_status ct_set_grad_enabled(int32_t enabled, int32_t* previous);
/* This thread's grad mode (1 on, 0 off). */
CT_API int32_t ct_is_grad_enabled(void);
/* Marks a leaf as requiring grad (floating dtypes only) or clears it. */
CT_API ct_status ct_tensor_set_requires_grad(ct_tensor t, int32_t requires_grad);
/* 1 if t requires grad. */
CT_API ct_status ct_tensor_requires_grad(ct_tensor t, int32_t* requires_grad);
/* 1 if t is a leaf (created by the user, not by a recorded op). */
CT_API ct_status ct_tensor_is_leaf(ct_tensor t, int32_t* is_leaf);
/* t's accumulated gradient; *grad = NULL (and CT_OK) when there is none. */
CT_API ct_status ct_tensor_grad(ct_tensor t, ct_tensor* grad);
/* Replaces t's gradient (grad NULL clears it); shape, dtype and device must match. */
CT_API ct_status ct_tensor_set_grad(ct_tensor t, ct_tensor grad);
/* Makes a non-leaf keep its gradient in backward. */
CT_API ct_status ct_tensor_retain_grad(ct_tensor t);
/* Name of the node that made t ("MulBackward", ...) into buf[cap]; "" for leaves; *len the full length. */
CT_API ct_status ct_tensor_grad_fn_name(ct_tensor t, char* buf, int32_t cap, int32_t* len);
/* Backpropagates from t; grad_output NULL means ones (t must then have one element). */
CT_API ct_status ct_backward(ct_tensor t, ct_tensor grad_output, int32_t retain_graph, int32_t create_graph);
/* Gradients of outputs w.r.t. inputs (not accumulated into .grad); grads_out[i] NULL when unused and allowed. */
CT_API ct_status ct_autograd_grad(const ct_tensor* outputs, int32_t n_outputs, const ct_tensor* grad_outputs,
                                  const ct_tensor* inputs, int32_t n_inputs, int32_t retain_graph,
                                  int32_t create_graph, int32_t allow_unused, ct_tensor* grads_out);

/* Backward of a custom function: fills grad_inputs[n_inputs] with new handles (NULL = no gradient) from
 * grad_outputs[n_outputs] (never NULL; zeros where an output got no gradient). Returns CT_OK or a status
 * (set a message with ct_set_error). Runs on the thread that called backward. */
typedef ct_status (*ct_backward_fn)(void* ctx, const ct_tensor* grad_outputs, int32_t n_outputs,
                                    ct_tensor* grad_inputs, int32_t n_inputs);
/* Called once when the custom function's node is freed. */
typedef void (*ct_ctx_release_fn)(void* ctx);
/* Attaches outputs (computed by the caller) to a new node whose backward is the callback; results[i] are new
 * handles sharing outputs[i]'s storage with the node as grad_fn. ctx_release runs once, even on failure. The
 * node's name is name (bytes that are not UTF-8 written as \xnn), or "CustomFunctionBackward" when NULL or "". */
CT_API ct_status ct_custom_function_apply(const char* name, const ct_tensor* inputs, int32_t n_inputs,
                                          const ct_tensor* outputs, int32_t n_outputs, ct_backward_fn backward,
                                          void* ctx, ct_ctx_release_fn ctx_release, ct_tensor* results);

/* A tensor hook: called during backward with the gradient w.r.t. the tensor (grad, borrowed: retain it to
 * keep it). It may set *replacement to a new handle (ownership passes to ctensor) to use instead, or leave it
 * NULL to keep grad. Returns CT_OK or a status (set a message with ct_set_error) that fails the backward. */
typedef ct_status (*ct_tensor_hook_fn)(ct_tensor grad, void* ctx, ct_tensor* replacement);
/* Registers hook on t (leaf or not; t must require grad) like torch.Tensor.register_hook: on a leaf it runs
 * before the gradient is accumulated into .grad. Hooks run in registration order on the thread that called
 * backward. destroy_ctx (may be NULL) runs once with ctx when the hook is removed or when t and every graph
 * that can reach it are freed, and also on failure. *id gets a number for ct_tensor_remove_hook. */
CT_API ct_status ct_tensor_register_hook(ct_tensor t, ct_tensor_hook_fn hook, void* ctx, ct_ctx_release_fn destroy_ctx,
                                         int64_t* id);
/* Removes hook id from t (CT_ERR_INVALID_ARGUMENT if t has no such hook); its destroy_ctx runs once no backward
 * is running it. */
CT_API ct_status ct_tensor_remove_hook(ct_tensor t, int64_t id);

/* ---- Optimizers --------------------------------------------------------------------------------- */

/* SGD with momentum, dampening, weight decay and Nesterov, like torch.optim.SGD. */
CT_API ct_status ct_optim_sgd_new(const ct_tensor* params, int32_t n, double lr, double momentum, double dampening,
                                  double weight_decay, int32_t nesterov, ct_optimizer* out);
/* Adam (L2 weight decay) like torch.optim.Adam. */
CT_API ct_status ct_optim_adam_new(const ct_tensor* params, int32_t n, double lr, double beta1, double beta2,
                                   double eps, double weight_decay, ct_optimizer* out);
/* AdamW (decoupled weight decay) like torch.optim.AdamW. */
CT_API ct_status ct_optim_adamw_new(const ct_tensor* params, int32_t n, double lr, double beta1, double beta2,
                                    double eps, double weight_decay, ct_optimizer* out);
/* Adds a reference; returns opt. */
CT_API ct_optimizer ct_optimizer_retain(ct_optimizer opt);
/* Drops a reference (NULL-safe). */
CT_API void ct_optimizer_release(ct_optimizer opt);
/* One update of every parameter that has a gradient (runs without recording a graph). */
CT_API ct_status ct_optimizer_step(ct_optimizer opt);
/* Clears the parameters' gradients (set_to_none != 0 drops them, else fills them with zeros). */
CT_API ct_status ct_optimizer_zero_grad(ct_optimizer opt, int32_t set_to_none);
/* Sets the learning rate. */
CT_API ct_status ct_optimizer_set_lr(ct_optimizer opt, double lr);
/* Current learning rate. */
CT_API ct_status ct_optimizer_get_lr(ct_optimizer opt, double* lr);
/* Sets hyper-parameter `name` ("lr"; SGD "momentum", "dampening", "weight_decay", "nesterov" (0 or 1); Adam/AdamW
 * "beta1", "beta2", "eps", "weight_decay"), checked like the constructor's arguments; used from the next step on. */
CT_API ct_status ct_optimizer_set_hparam(ct_optimizer opt, const char* name, double value);
/* Current value of hyper-parameter `name` (names as for ct_optimizer_set_hparam). */
CT_API ct_status ct_optimizer_get_hparam(ct_optimizer opt, const char* name, double* value);
/* Number of parameters opt updates. */
CT_API ct_status ct_optimizer_num_params(ct_optimizer opt, int32_t* n);
/* Comma-separated names of opt's per-parameter state tensors ("momentum_buffer" for SGD, "exp_avg,exp_avg_sq"
 * for Adam/AdamW) into buf[cap]; *len gets the full length. */
CT_API ct_status ct_optimizer_state_names(ct_optimizer opt, char* buf, int32_t cap, int32_t* len);
/* A copy of state tensor `name` of parameter param; *out = NULL (and CT_OK) while it is not created yet. */
CT_API ct_status ct_optimizer_get_state(ct_optimizer opt, int32_t param, const char* name, ct_tensor* out);
/* Replaces state tensor `name` of parameter param with a copy of value (parameter's shape; converted to its
 * dtype); value NULL clears it (it is created again on the next step). */
CT_API ct_status ct_optimizer_set_state(ct_optimizer opt, int32_t param, const char* name, ct_tensor value);
/* Updates applied to parameter param (Adam/AdamW bias correction; CT_ERR_NOT_SUPPORTED for SGD, which has none). */
CT_API ct_status ct_optimizer_get_step(ct_optimizer opt, int32_t param, int64_t* step);
/* Sets the update count of parameter param (step >= 0) when resuming training (Adam/AdamW). */
CT_API ct_status ct_optimizer_set_step(ct_optimizer opt, int32_t param, int64_t step);

/* ---- DLPack (zero-copy exchange; exports are detached from the graph) --------------------------- */

/* Exports t as a legacy DLManagedTensor; the consumer calls its deleter once (from any thread). */
CT_API ct_status ct_to_dlpack(ct_tensor t, struct DLManagedTensor** out);
/* Exports t as a DLPack 1.x DLManagedTensorVersioned. */
CT_API ct_status ct_to_dlpack_versioned(ct_tensor t, struct DLManagedTensorVersioned** out);
/* Imports a legacy DLManagedTensor; on success ctensor owns it and calls its deleter when done (bool memory
 * must hold only the bytes 0 and 1). */
CT_API ct_status ct_from_dlpack(struct DLManagedTensor* managed, ct_tensor* out);
/* Imports a DLManagedTensorVersioned (major version 1); on success ctensor owns it. Read-only flag is refused. */
CT_API ct_status ct_from_dlpack_versioned(struct DLManagedTensorVersioned* managed, ct_tensor* out);

/* Python's a // b: floor(a / b); integers exact (INT_MIN // -1 wraps), integer b must be nonzero; no gradient. */
CT_API ct_status ct_floor_divide(ct_tensor a, ct_tensor b, ct_tensor* out);

/* ---- More activations (torch.nn.functional's; floating x only, integer x is CT_ERR_DTYPE) ---- */

/* scale * (x if x > 0 else alpha * (exp(input_scale * x) - 1)): ELU; SELU and CELU are its parameterisations. */
CT_API ct_status ct_elu(ct_tensor x, double alpha, double scale, double input_scale, ct_tensor* out);
/* x if x > 0 else negative_slope * x. */
CT_API ct_status ct_leaky_relu(ct_tensor x, double negative_slope, ct_tensor* out);
/* x clamped to [min_val, max_val] (max_val everywhere if min_val > max_val, as torch); gradient only strictly
 * inside (ReLU6 = [0, 6]). */
CT_API ct_status ct_hardtanh(ct_tensor x, double min_val, double max_val, ct_tensor* out);
/* clamp(x / 6 + 1/2, 0, 1). */
CT_API ct_status ct_hardsigmoid(ct_tensor x, ct_tensor* out);
/* x * clamp(x + 3, 0, 6) / 6. */
CT_API ct_status ct_hardswish(ct_tensor x, ct_tensor* out);
/* x - lambd if x > lambd, x + lambd if x < -lambd, else 0 (lambd >= 0). */
CT_API ct_status ct_softshrink(ct_tensor x, double lambd, ct_tensor* out);
/* x if |x| > lambd else 0. */
CT_API ct_status ct_hardshrink(ct_tensor x, double lambd, ct_tensor* out);
/* x if x > threshold else value, in x's dtype (any but bool; value must fit it). */
CT_API ct_status ct_threshold(ct_tensor x, double threshold, double value, ct_tensor* out);
/* x * tanh(softplus(x)). */
CT_API ct_status ct_mish(ct_tensor x, ct_tensor* out);
/* log(sigmoid(x)), stable for large |x|. */
CT_API ct_status ct_log_sigmoid(ct_tensor x, ct_tensor* out);
/* x / (1 + |x|). */
CT_API ct_status ct_softsign(ct_tensor x, ct_tensor* out);
/* x - tanh(x). */
CT_API ct_status ct_tanhshrink(ct_tensor x, ct_tensor* out);
/* softmax(-x) along dim. */
CT_API ct_status ct_softmin(ct_tensor x, int64_t dim, ct_tensor* out);
/* a * sigmoid(b) for the halves a, b of x along dim (its size must be even). */
CT_API ct_status ct_glu(ct_tensor x, int64_t dim, ct_tensor* out);
/* x if x > 0 else weight * x; weight (0-d or 1-d) has 1 element or one per channel (dim 1 of x; 1 below 2-d). */
CT_API ct_status ct_prelu(ct_tensor x, ct_tensor weight, ct_tensor* out);
/* x if x > 0 else r * x: r ~ U(lower, upper) per element in training (gen NULL = default), (lower + upper) / 2
 * otherwise (0 <= lower <= upper). */
CT_API ct_status ct_rrelu(ct_tensor x, double lower, double upper, int32_t training, ct_generator gen, ct_tensor* out);

/* ---- safetensors: named tensors + string metadata, saved and loaded in the safetensors format ---- */

/* A new empty set of named tensors (to fill with ct_safetensors_add and save). */
CT_API ct_status ct_safetensors_new(ct_safetensors* out);
/* Adds another reference to f; returns f. */
CT_API ct_safetensors ct_safetensors_retain(ct_safetensors f);
/* Drops a reference (NULL-safe, any thread); tensors taken from f stay valid. */
CT_API void ct_safetensors_release(ct_safetensors f);
/* Adds t (a reference, not a copy) under name: valid UTF-8, not "__metadata__", not in f yet. */
CT_API ct_status ct_safetensors_add(ct_safetensors f, const char* name, ct_tensor t);
/* Sets metadata key to value (both valid UTF-8; replaces an existing value). */
CT_API ct_status ct_safetensors_set_metadata(ct_safetensors f, const char* key, const char* value);
/* Number of tensors in f. */
CT_API ct_status ct_safetensors_count(ct_safetensors f, int32_t* n);
/* Name of tensor i (0-based; file order after a load) into buf[cap]; *len gets the full length. */
CT_API ct_status ct_safetensors_name(ct_safetensors f, int32_t i, char* buf, int32_t cap, int32_t* len);
/* A new reference to the tensor named name; CT_ERR_INDEX when f has none. */
CT_API ct_status ct_safetensors_get(ct_safetensors f, const char* name, ct_tensor* out);
/* Number of metadata keys in f. */
CT_API ct_status ct_safetensors_metadata_count(ct_safetensors f, int32_t* n);
/* Metadata key i into buf[cap]; *len gets the full length. */
CT_API ct_status ct_safetensors_metadata_key(ct_safetensors f, int32_t i, char* buf, int32_t cap, int32_t* len);
/* The value of metadata key into buf[cap]; *len gets the full length; CT_ERR_INDEX when absent. */
CT_API ct_status ct_safetensors_metadata_get(ct_safetensors f, const char* key, char* buf, int32_t cap, int32_t* len);
/* Writes f's tensors (any device, stored row-major) and metadata to path (through path".tmp", renamed). */
CT_API ct_status ct_save_safetensors(ct_safetensors f, const char* path);
/* Reads and checks the safetensors file at path, tensors on device; map != 0 lets CPU tensors view a private
 * mapping of the file (zero-copy; writes never reach the file). A bad file is CT_ERR_IO naming what is wrong. */
CT_API ct_status ct_load_safetensors(const char* path, ct_device device, int32_t map, ct_safetensors* out);

/* ---- Distributed: collectives over process groups (Open MPI for CPU tensors; see docs/distributed.md) --------
 * Every rank of a group must make the same calls in the same order with the same shapes and dtypes; a mismatch
 * is CT_ERR_DISTRIBUTED on every rank. Calls wait at most the group's timeout, then fail with CT_ERR_DISTRIBUTED,
 * after which the group is unusable. Without the MPI backend every call is CT_ERR_NOT_COMPILED saying why. */

typedef struct ct_process_group_s* ct_process_group; /* a group of processes (ranks) that run collectives */
typedef struct ct_work_s* ct_work;                   /* an asynchronous collective in flight */

typedef int32_t ct_reduce_op;
enum {
    CT_REDUCE_SUM = 0,    /* sum (bool: or) */
    CT_REDUCE_MEAN = 1,   /* sum divided by the group size (floating dtypes only) */
    CT_REDUCE_MAX = 2,    /* maximum (bool: or) */
    CT_REDUCE_MIN = 3,    /* minimum (bool: and) */
    CT_REDUCE_PRODUCT = 4 /* product (bool: and) */
};

/* The world group of the MPI launch (mpirun/srun); initialises MPI if needed (then finalises it at exit). */
CT_API ct_status ct_process_group_new_mpi(ct_process_group* out);
/* Collective over parent: ranks[n] form a new group (rank = position); non-members get one of size 0, rank -1. */
CT_API ct_status ct_process_group_new_subgroup(ct_process_group parent, const int32_t* ranks, int32_t n,
                                               ct_process_group* out);
/* Adds a reference to pg and returns pg (NULL-safe). */
CT_API ct_process_group ct_process_group_retain(ct_process_group pg);
/* Drops a reference (NULL-safe, any thread); works in flight keep the group alive. */
CT_API void ct_process_group_release(ct_process_group pg);
/* This process's rank in pg (-1 when not a member). */
CT_API ct_status ct_process_group_rank(ct_process_group pg, int32_t* rank);
/* Number of ranks in pg (0 when this process is not a member). */
CT_API ct_status ct_process_group_size(ct_process_group pg, int32_t* size);
/* Timeout in seconds of pg's later calls (> 0; default $CTENSOR_DIST_TIMEOUT, else 300). */
CT_API ct_status ct_process_group_set_timeout(ct_process_group pg, double seconds);
/* In place: t = op over the ranks' t (bumps t's version). */
CT_API ct_status ct_all_reduce(ct_process_group pg, ct_tensor t, ct_reduce_op op);
/* In place: t = rank root's t on every rank (bumps t's version). */
CT_API ct_status ct_broadcast(ct_process_group pg, ct_tensor t, int32_t root);
/* out = the ranks' inputs stacked in rank order, shape [size, *input.shape]. */
CT_API ct_status ct_all_gather(ct_process_group pg, ct_tensor input, ct_tensor* out);
/* out = this rank's chunk (dim 0 split in size parts) of op over the ranks' inputs. */
CT_API ct_status ct_reduce_scatter(ct_process_group pg, ct_tensor input, ct_reduce_op op, ct_tensor* out);
/* Returns once every rank of pg has called it. */
CT_API ct_status ct_barrier(ct_process_group pg);
/* Sends t to rank dst of pg, matched by a ct_recv there with the same tag (>= 0). */
CT_API ct_status ct_send(ct_process_group pg, ct_tensor t, int32_t dst, int32_t tag);
/* Receives into t (same number of elements and dtype as sent) from rank src of pg with tag. */
CT_API ct_status ct_recv(ct_process_group pg, ct_tensor t, int32_t src, int32_t tag);
/* Starts ct_all_reduce; t must stay unused until the work is done (the work holds a reference). */
CT_API ct_status ct_all_reduce_async(ct_process_group pg, ct_tensor t, ct_reduce_op op, ct_work* out);
/* Starts ct_broadcast; t must stay unused until the work is done (the work holds a reference). */
CT_API ct_status ct_broadcast_async(ct_process_group pg, ct_tensor t, int32_t root, ct_work* out);
/* Waits for work (at most its group's timeout) and returns the collective's status. */
CT_API ct_status ct_work_wait(ct_work work);
/* *done = 1 when work has finished (successfully or not; ct_work_wait gives which), else 0. */
CT_API ct_status ct_work_is_completed(ct_work work, int32_t* done);
/* Drops a reference (NULL-safe); releasing the last reference of an unfinished work waits for it. */
CT_API void ct_work_release(ct_work work);

typedef struct ct_data_parallel_s* ct_data_parallel; /* averages gradients over a process group */
/* Broadcasts params[n] (distinct leaves that require grad, same shapes/dtypes on every rank) from rank 0 of pg
 * in place (no autograd) and registers gradient hooks on them: during each backward the gradients are packed
 * into buckets of about bucket_bytes (<= 0: 25 MiB; filled in reverse parameter order, as torch's DDP) and each
 * full bucket is all-reduced asynchronously while backward goes on; when the last parameter's gradient has
 * arrived the reductions are awaited and every param's .grad holds the mean over the ranks of its gradient. */
CT_API ct_status ct_data_parallel_new(ct_process_group pg, const ct_tensor* params, int32_t n, int64_t bucket_bytes,
                                      ct_data_parallel* out);
/* sync = 0: later backwards accumulate into .grad locally without communicating (torch's no_sync); the next
 * backward with sync = 1 (the default) averages the accumulated gradients. */
CT_API ct_status ct_data_parallel_set_sync(ct_data_parallel dp, int32_t sync);
/* Finishes a reduction that a backward left incomplete because some params got no gradient (they count as
 * zero: torch's find_unused_parameters); CT_OK and nothing to do when the last backward completed it. */
CT_API ct_status ct_data_parallel_finish(ct_data_parallel dp);
/* Removes the hooks and drops the references (NULL-safe); waits for reductions in flight. */
CT_API void ct_data_parallel_release(ct_data_parallel dp);
/* Optional, after the forward and before a synchronising backward (torch's find_unused_parameters): params that
 * the graph of outputs[n] cannot reach count as zero from the start of the next backward, which then completes
 * the reduction by itself; params unused on every rank keep their .grad. All ranks call it or none does. */
CT_API ct_status ct_data_parallel_prepare(ct_data_parallel dp, const ct_tensor* outputs, int32_t n);
/* *n = number of buckets dp packs the gradients into (one all-reduce each per synchronising backward). */
CT_API ct_status ct_data_parallel_bucket_count(ct_data_parallel dp, int32_t* n);
/* enabled = 0 trades safety for latency on pg: collectives skip the agreement round trip (Note [Agreement]), so a
 * mismatch between ranks is no longer reported (MPI's undefined behaviour: a hang, an error or wrong data) and a
 * blocking collective waits for absent ranks without a timeout; 1 (the default) turns the checks back on. */
CT_API ct_status ct_process_group_set_checks(ct_process_group pg, int32_t enabled);

/* ---- More losses (torch.nn.functional's; reduction is a CT_REDUCTION_* code; the input must be floating) ---- */

/* |input - target| (broadcast together). */
CT_API ct_status ct_l1_loss(ct_tensor input, ct_tensor target, int32_t reduction, ct_tensor* out);
/* d = input - target: 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (beta >= 0; at 0, |d| with torch's
 * gradient -1 at d == 0 for input and target). */
CT_API ct_status ct_smooth_l1_loss(ct_tensor input, ct_tensor target, int32_t reduction, double beta, ct_tensor* out);
/* d = input - target: 0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta) (delta > 0). */
CT_API ct_status ct_huber_loss(ct_tensor input, ct_tensor target, int32_t reduction, double delta, ct_tensor* out);
/* target (log target - input) (0 where target == 0), or exp(target) (target - input) when log_target != 0, of
 * log-probabilities input; reduction may also be CT_REDUCTION_BATCHMEAN. */
CT_API ct_status ct_kl_div(ct_tensor input, ct_tensor target, int32_t reduction, int32_t log_target, ct_tensor* out);
/* log(1 + exp(-target * input)); target broadcasts to the input's shape. */
CT_API ct_status ct_soft_margin_loss(ct_tensor input, ct_tensor target, int32_t reduction, ct_tensor* out);
/* exp(input) - target input when log_input != 0, else input - target log(input + eps); full != 0 adds Stirling's
 * approximation of log(target!) where target > 1. */
CT_API ct_status ct_poisson_nll_loss(ct_tensor input, ct_tensor target, int32_t reduction, int32_t log_input,
                                     int32_t full, double eps, ct_tensor* out);
/* 0.5 (log v + (input - target)^2 / v) with v = max(var, eps) (gradient as if unclamped), + 0.5 log(2 pi) when
 * full != 0; var has the input's shape, or it without its last dim or with 1 there; var < 0 is an error. */
CT_API ct_status ct_gaussian_nll_loss(ct_tensor input, ct_tensor target, ct_tensor var, int32_t reduction,
                                      int32_t full, double eps, ct_tensor* out);
/* input where target != -1 plus max(margin - input, 0) where target != 1 (targets are 1 or -1). */
CT_API ct_status ct_hinge_embedding_loss(ct_tensor input, ct_tensor target, int32_t reduction, double margin,
                                         ct_tensor* out);
/* max(-target (input1 - input2) + margin, 0); all three have the same number of dims and broadcast. */
CT_API ct_status ct_margin_ranking_loss(ct_tensor input1, ct_tensor input2, ct_tensor target, int32_t reduction,
                                        double margin, ct_tensor* out);
/* -(target log sigmoid(x) + (1 - target) log sigmoid(-x)) times weight (NULL = none; broadcasts), averaged over the
 * class dim (the last): one loss per sample. */
CT_API ct_status ct_multilabel_soft_margin_loss(ct_tensor input, ct_tensor target, ct_tensor weight, int32_t reduction,
                                                ct_tensor* out);
/* Per sample of input [N, C] (or [C]) with class targets [N] (or [1] / 0-d): the sum over i != y of
 * max(margin - x[y] + x[i], 0)^p (p 1 or 2) times weight[y] (weight [C], NULL = none), divided by C. */
CT_API ct_status ct_multi_margin_loss(ct_tensor input, ct_tensor target, int32_t reduction, int64_t p, double margin,
                                      ct_tensor weight, ct_tensor* out);
/* cos = cosine similarity of input1 and input2 [N, D] (target [N]) or [D] (0-d target): 1 - cos where target is 1,
 * max(cos - margin, 0) where it is -1. */
CT_API ct_status ct_cosine_embedding_loss(ct_tensor input1, ct_tensor input2, ct_tensor target, int32_t reduction,
                                          double margin, ct_tensor* out);
/* max(margin + d(anchor, positive) - d(anchor, negative), 0) with d the p-norm of x1 - x2 + eps over the last dim;
 * swap != 0 takes min(d(anchor, negative), d(positive, negative)); the three have the same number of dims. */
CT_API ct_status ct_triplet_margin_loss(ct_tensor anchor, ct_tensor positive, ct_tensor negative, int32_t reduction,
                                        double margin, double p, double eps, int32_t swap, ct_tensor* out);
/* Connectionist temporal classification loss of log_probs [T, N, C] (or [T, C] for one sample) against integer
 * targets [N, S] (padded) or concatenated [sum(target_lengths)], labels in [0, C); input_lengths and target_lengths
 * hold n = N values each (NULL only when n is 0); blank in [0, C). zero_infinity != 0 turns infinite losses (no
 * alignment) and their gradients into 0. Mean divides each loss by its target length (at least 1), then averages.
 * First derivative only (the second is CT_ERR_NOT_SUPPORTED, as torch's). */
CT_API ct_status ct_ctc_loss(ct_tensor log_probs, ct_tensor targets, const int64_t* input_lengths,
                             const int64_t* target_lengths, int64_t n, int32_t reduction, int64_t blank,
                             int32_t zero_infinity, ct_tensor* out);
/* ---- torch.linalg: LAPACK-backed linear algebra (issue 14) ----
 * A is [..., m, n]: the last two dims hold the matrices, the leading dims are a batch (A and B broadcast over
 * them). float32/float64 only (other dtypes CT_ERR_DTYPE); a wrong rank or non-square input is CT_ERR_SHAPE; a
 * singular or non-positive-definite matrix is CT_ERR_INVALID_ARGUMENT naming the batch element. CPU only: CUDA
 * tensors are CT_ERR_NOT_SUPPORTED (they would need cuSOLVER). Differentiable where torch is (for eigh and svd:
 * distinct eigenvalues / singular values). */

typedef int32_t ct_qr_mode;
enum {
    CT_QR_REDUCED = 0,  /* Q [..., m, k], R [..., k, n], k = min(m, n) */
    CT_QR_COMPLETE = 1, /* Q [..., m, m], R [..., m, n] */
    CT_QR_R = 2         /* R [..., k, n] only; Q is an empty [0] tensor */
};

/* out = A^-1 of square A. */
CT_API ct_status ct_linalg_inv(ct_tensor a, ct_tensor* out);
/* out = det(A) of square A, shape [...]. */
CT_API ct_status ct_linalg_det(ct_tensor a, ct_tensor* out);
/* sign and log|det| of square A (sign 0 and logabsdet -inf for singular A); only logabsdet has a gradient. */
CT_API ct_status ct_linalg_slogdet(ct_tensor a, ct_tensor* sign, ct_tensor* logabsdet);
/* out = X with A X = B: B is [..., n, k], or a vector [n] / [..., n] (then X is one too), as torch decides. */
CT_API ct_status ct_linalg_solve(ct_tensor a, ct_tensor b, ct_tensor* out);
/* out = L (lower, A = L L^T) or, with upper, U = L^T; reads A's lower triangle. */
CT_API ct_status ct_linalg_cholesky(ct_tensor a, int32_t upper, ct_tensor* out);
/* A = Q R in the given ct_qr_mode. */
CT_API ct_status ct_linalg_qr(ct_tensor a, ct_qr_mode mode, ct_tensor* q, ct_tensor* r);
/* Ascending eigenvalues [..., n] and eigenvectors (columns) of symmetric A, read from its upper triangle when
 * upper (torch's UPLO='U'), else the lower. */
CT_API ct_status ct_linalg_eigh(ct_tensor a, int32_t upper, ct_tensor* eigenvalues, ct_tensor* eigenvectors);
/* The eigenvalues of ct_linalg_eigh alone. */
CT_API ct_status ct_linalg_eigvalsh(ct_tensor a, int32_t upper, ct_tensor* out);
/* A = U diag(S) Vh, S descending: full_matrices gives U [..., m, m] and Vh [..., n, n], else [..., m, k], [..., k, n]. */
CT_API ct_status ct_linalg_svd(ct_tensor a, int32_t full_matrices, ct_tensor* u, ct_tensor* s, ct_tensor* vh);
/* The singular values of A, descending, [..., k]. */
CT_API ct_status ct_linalg_svdvals(ct_tensor a, ct_tensor* out);
/* out = X with A X = B (left) or X A = B, A triangular (upper or lower triangle read; unitriangular: diagonal taken
 * as 1); no singularity check (a zero diagonal gives inf/NaN). */
CT_API ct_status ct_linalg_solve_triangular(ct_tensor a, ct_tensor b, int32_t upper, int32_t left,
                                            int32_t unitriangular, ct_tensor* out);
/* out = A^n of square A: n < 0 is (A^-1)^|n| (floating A), n = 0 the identity; any dtype but bool. */
CT_API ct_status ct_linalg_matrix_power(ct_tensor a, int64_t n, ct_tensor* out);
/* out = the cross product of a and b along dim (size 3 there); a and b have one rank and broadcast. */
CT_API ct_status ct_linalg_cross(ct_tensor a, ct_tensor b, int64_t dim, ct_tensor* out);
/* out = (sum |x|^ord)^(1/ord) over dims (ndims 0: all); ord INFINITY / -INFINITY: max / min |x|; 0: nonzero count. */
CT_API ct_status ct_linalg_vector_norm(ct_tensor x, double ord, const int64_t* dims, int32_t ndims, int32_t keepdim,
                                       ct_tensor* out);
/* out = the matrix norm over dims (dim0, dim1); ord is "fro", "nuc", "inf", "-inf", "1", "-1", "2" or "-2". */
CT_API ct_status ct_linalg_matrix_norm(ct_tensor x, const char* ord, int64_t dim0, int64_t dim1, int32_t keepdim,
                                       ct_tensor* out);
/* out = the pseudo-inverse (SVD) dropping singular values <= max(atol, rtol * largest); atol, rtol < 0: not given,
 * torch's defaults (rtol = eps * max(m, n) when neither is given, 0 when only atol is). */
CT_API ct_status ct_linalg_pinv(ct_tensor a, double atol, double rtol, ct_tensor* out);
/* out = the number (int64) of singular values above ct_linalg_pinv's tolerance. */
CT_API ct_status ct_linalg_matrix_rank(ct_tensor a, double atol, double rtol, ct_tensor* out);
/* out = the least-squares solution X of A X = B (B [..., m, k]) for full-rank A [..., m, n] through QR
 * (the minimum-norm solution when m < n); torch.linalg.lstsq's solution. */
CT_API ct_status ct_linalg_lstsq(ct_tensor a, ct_tensor b, ct_tensor* out);

/* ---- attention and transformers (issue 14) ---- */
/* out = softmax(q k^T * scale + mask) v [..., L, Ev] for q [..., L, E], k [..., S, E], v [..., S, Ev] (leading dims
 * broadcast); attn_mask NULL, bool (nonzero = attend) or floating (added), broadcastable to [..., L, S]; is_causal
 * also masks key j > query i; dropout_p of the probabilities dropped, drawn from gen (NULL: the default
 * generator); scale NaN or <= 0: 1 / sqrt(E). CPU: blocked kernel (no [L, S] matrix); CUDA: per query block. */
CT_API ct_status ct_scaled_dot_product_attention(ct_tensor q, ct_tensor k, ct_tensor v, ct_tensor attn_mask,
                                                 double dropout_p, int32_t is_causal, double scale, ct_generator gen,
                                                 ct_tensor* out);
/* torch.nn.functional.multi_head_attention_forward, seq-first: query [L, N, E] (or unbatched [L, E]), key [S, N, kdim],
 * value [S, N, vdim]. Projection: in_proj_weight [3E, E] (kdim = vdim = E) or, when it is NULL, q_proj_weight
 * [E, E], k_proj_weight [E, kdim], v_proj_weight [E, vdim]; in_proj_bias [3E] or NULL; bias_k, bias_v [1, 1, E] or
 * NULL. Masks (NULL, bool: nonzero = not allowed, or floating: added): key_padding_mask [N, S], attn_mask [L, S] or
 * [N * num_heads, L, S]; is_causal also masks key j > query i. dropout_p applies when training. out [L, N, E];
 * with need_weights, *out_weights = the attention probabilities [N, L, S] (averaged over heads) or [N, num_heads, L,
 * S]; without, *out_weights = NULL (out_weights may then be NULL). */
CT_API ct_status ct_multi_head_attention_forward(ct_tensor query, ct_tensor key, ct_tensor value, int64_t num_heads,
                                                 ct_tensor in_proj_weight, ct_tensor in_proj_bias, ct_tensor bias_k,
                                                 ct_tensor bias_v, int32_t add_zero_attn, double dropout_p,
                                                 ct_tensor out_proj_weight, ct_tensor out_proj_bias, int32_t training,
                                                 ct_tensor key_padding_mask, int32_t need_weights, ct_tensor attn_mask,
                                                 ct_tensor q_proj_weight, ct_tensor k_proj_weight,
                                                 ct_tensor v_proj_weight, int32_t average_attn_weights,
                                                 int32_t is_causal, ct_generator gen, ct_tensor* out,
                                                 ct_tensor* out_weights);
/* ---- N-d convolution, pooling, unfold/fold (issue 14) ---- */
/* N-d (transposed when transposed != 0) convolution over ndim_spatial = 1, 2 or 3 dims: input [N, C, in...] or
 * [C, in...]; weight [O, C/groups, k...] (transposed: [C, O/groups, k...]); bias [O] or NULL; stride, padding,
 * dilation and output_padding hold ndim_spatial values (output_padding: transposed only, NULL = zeros). */
CT_API ct_status ct_convolution(ct_tensor x, ct_tensor weight, ct_tensor bias, const int64_t* stride,
                                const int64_t* padding, const int64_t* dilation, int32_t ndim_spatial,
                                int32_t transposed, const int64_t* output_padding, int64_t groups, ct_tensor* out);
/* N-d max pooling over ndim_spatial = 1, 2 or 3 dims of [N, C, in...] or [C, in...]; kernel, stride, padding,
 * dilation hold ndim_spatial values; ceil_mode as ct_max_pool2d_ex; *indices_out (when not NULL) gets the int64
 * argmax as a flat row-major index into each input plane (torch's return_indices), -1 for padding only. */
CT_API ct_status ct_max_pool_nd(ct_tensor x, int32_t ndim_spatial, const int64_t* kernel, const int64_t* stride,
                                const int64_t* padding, const int64_t* dilation, int32_t ceil_mode, ct_tensor* out,
                                ct_tensor* indices_out);
/* N-d average pooling (arrays of ndim_spatial values; options as ct_avg_pool2d_ex). */
CT_API ct_status ct_avg_pool_nd(ct_tensor x, int32_t ndim_spatial, const int64_t* kernel, const int64_t* stride,
                                const int64_t* padding, int32_t ceil_mode, int32_t count_include_pad,
                                int64_t divisor_override, ct_tensor* out);
/* N-d adaptive average pooling to output_size (ndim_spatial values; windows as ct_adaptive_avg_pool2d). */
CT_API ct_status ct_adaptive_avg_pool_nd(ct_tensor x, int32_t ndim_spatial, const int64_t* output_size, ct_tensor* out);
/* N-d adaptive max pooling; *indices_out (when not NULL) as ct_max_pool_nd. */
CT_API ct_status ct_adaptive_max_pool_nd(ct_tensor x, int32_t ndim_spatial, const int64_t* output_size, ct_tensor* out,
                                         ct_tensor* indices_out);
/* Sliding blocks (torch's F.unfold): x [N, C, H, W] or [C, H, W] -> [N, C * kh * kw, L] (L blocks, row-major over
 * their positions); kernel, dilation, padding and stride are {h, w}. */
CT_API ct_status ct_unfold(ct_tensor x, const int64_t* kernel, const int64_t* dilation, const int64_t* padding,
                           const int64_t* stride, ct_tensor* out);
/* The adjoint of ct_unfold (torch's F.fold): blocks [N, C * kh * kw, L] or 2 dims summed into [N, C, output_size]. */
CT_API ct_status ct_fold(ct_tensor x, const int64_t* output_size, const int64_t* kernel, const int64_t* dilation,
                         const int64_t* padding, const int64_t* stride, ct_tensor* out);
/* [*, C * r * r, H, W] -> [*, C, H * r, W * r] (r = upscale_factor). */
CT_API ct_status ct_pixel_shuffle(ct_tensor x, int64_t upscale_factor, ct_tensor* out);
/* [*, C, H * r, W * r] -> [*, C * r * r, H, W] (r = downscale_factor). */
CT_API ct_status ct_pixel_unshuffle(ct_tensor x, int64_t downscale_factor, ct_tensor* out);

/* ---- recurrent nets (issue 14) ---- */
/* Recurrent modes of ct_rnn / ct_rnn_cell (torch's cudnn numbering). */
enum {
    CT_RNN_RELU = 0, /* h' = relu(W_ih x + b_ih + W_hh h + b_hh) */
    CT_RNN_TANH = 1, /* h' = tanh(W_ih x + b_ih + W_hh h + b_hh) */
    CT_RNN_LSTM = 2, /* gates i, f, g, o */
    CT_RNN_GRU = 3   /* gates r, z, n */
};
/* torch's _VF.rnn_relu / rnn_tanh / lstm / gru: a stack of num_layers fused layers (bidirectional: 2 directions) over
 * x [T, B, I] ([B, T, I] when batch_first) or, with batch_sizes (num_batch_sizes steps, non-increasing), packed rows
 * [sum(batch_sizes), I]. weights: num_weights tensors in torch's _flat_weights order (per layer and direction:
 * w_ih, w_hh, then b_ih, b_hh when has_biases, then w_hr when proj_size > 0 (LSTM only)). hx [L*D, B, Hout] and cx
 * [L*D, B, H] (LSTM) may be NULL (zeros). dropout between layers when train, from gen (NULL: default). out
 * [T, B, D*Hout] (packed: [sum(batch_sizes), D*Hout]), hy [L*D, B, Hout], cy [L*D, B, H] for LSTM (cy may be NULL
 * otherwise, and is set to NULL). One autograd node per layer-direction; no second derivative (as torch's cudnn). */
CT_API ct_status ct_rnn(int32_t mode, ct_tensor x, ct_tensor hx, ct_tensor cx, const ct_tensor* weights,
                        int32_t num_weights, int32_t has_biases, int64_t num_layers, double dropout, int32_t train,
                        int32_t bidirectional, int32_t batch_first, int64_t proj_size, const int64_t* batch_sizes,
                        int64_t num_batch_sizes, ct_generator gen, ct_tensor* out, ct_tensor* hy, ct_tensor* cy);
/* One step of a cell (torch's rnn_relu_cell / rnn_tanh_cell / lstm_cell / gru_cell): x [B, I] or [I], hx (and cx
 * for LSTM) [B, H] or [H] or NULL (zeros), b_ih / b_hh both or neither NULL. hy, and cy for LSTM (else NULL). */
CT_API ct_status ct_rnn_cell(int32_t mode, ct_tensor x, ct_tensor hx, ct_tensor cx, ct_tensor w_ih, ct_tensor w_hh,
                             ct_tensor b_ih, ct_tensor b_hh, ct_tensor* hy, ct_tensor* cy);
/* ---- the everyday tensor toolbox (issue 14) ----
 * In-place indexed writes: each bumps dst's version counter and, under autograd, rebases dst's history like the
 * other in-place ops (a leaf that requires grad is CT_ERR_AUTOGRAD). Indices are int64 or int32 tensors on dst's
 * device; one outside its dim's range is CT_ERR_INDEX naming the op and the value. On the CPU duplicates resolve
 * in index order: the last write wins, accumulate sums (on CUDA a write keeps any one of the values). */

/* dst.scatter_(dim, index, src): as ct_scatter, written into dst. */
CT_API ct_status ct_scatter_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src);
/* dst.scatter_add_(dim, index, src): as ct_scatter_add, written into dst. */
CT_API ct_status ct_scatter_add_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src);
/* out = x with alpha * src's slices along dim added at index (1-D, values in [0, size)); src has x's shape but
 * index's length at dim; alpha must be integral for integer x. */
CT_API ct_status ct_index_add(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, double alpha, ct_tensor* out);
/* ct_index_add written into dst. */
CT_API ct_status ct_index_add_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src, double alpha);
/* out = x with src's slices along dim copied to index (as ct_index_add, without the sum). */
CT_API ct_status ct_index_copy(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, ct_tensor* out);
/* ct_index_copy written into dst. */
CT_API ct_status ct_index_copy_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src);
/* out = x with x[index_list[0], ..., index_list[n-1]] = values (or += with accumulate): the n index tensors broadcast
 * together to a shape B and pick positions in x's first n dims (negative values count from the end); values
 * broadcast to B + x.shape[n:] and has x's dtype. Bool masks are not taken: pass their nonzero columns. */
CT_API ct_status ct_index_put(ct_tensor x, const ct_tensor* index_list, int32_t n, ct_tensor values,
                              int32_t accumulate, ct_tensor* out);
/* ct_index_put written into dst. */
CT_API ct_status ct_index_put_(ct_tensor dst, const ct_tensor* index_list, int32_t n, ct_tensor values,
                               int32_t accumulate);

/* Counting and searching: integer results, no gradient (as torch). CUDA tensors are read back once and computed on
 * the host (the result sizes depend on the values). */

/* out = where each of values would be inserted into the last dim of sorted_sequence to keep it sorted: the first
 * position whose element is >= the value (right: > the value; NaN sorts last). sorted_sequence is 1-D, or N-d with
 * values' leading dims; sorter (NULL: none) is int64 of sorted_sequence's shape, the order that sorts it. int64
 * (out_int32: int32) of values' shape. */
CT_API ct_status ct_searchsorted(ct_tensor sorted_sequence, ct_tensor values, int32_t right, int32_t out_int32,
                                 ct_tensor sorter, ct_tensor* out);
/* out[v] = the count of v in the 1-D non-negative integer x (or the sum of weights at those positions; weights NULL:
 * none), length max(max(x) + 1, minlength); int64, or weights' floating dtype (float64 for integer weights). */
CT_API ct_status ct_bincount(ct_tensor x, ct_tensor weights, int64_t minlength, ct_tensor* out);
/* out = the histogram of floating x over bins equal bins of [min, max] (values outside ignored; min == max: the
 * data's range), x's dtype. */
CT_API ct_status ct_histc(ct_tensor x, int64_t bins, double min, double max, ct_tensor* out);
/* values = the running maximum along dim, indices (int64) = where it was taken (ties: the later; NaN sticks);
 * values has a gradient. */
CT_API ct_status ct_cummax(ct_tensor x, int64_t dim, ct_tensor* values, ct_tensor* indices);
/* ct_cummax with the running minimum. */
CT_API ct_status ct_cummin(ct_tensor x, int64_t dim, ct_tensor* values, ct_tensor* indices);

/* Composites (built from the primitive ops: their gradients and CUDA support). */

/* out = x with NaN, +inf and -inf replaced by nan, posinf, neginf (has_*: 0 gives torch's defaults 0, the dtype's
 * largest and its lowest finite value); integer and bool x: a copy. The gradient is zero where x was not finite. */
CT_API ct_status ct_nan_to_num(ct_tensor x, double nan, int32_t has_nan, double posinf, int32_t has_posinf,
                               double neginf, int32_t has_neginf, ct_tensor* out);
/* out = the n-th forward difference along dim of x with prepend / append (NULL: none; x's rank) joined before /
 * after it; bool tensors differ by xor. */
CT_API ct_status ct_diff(ct_tensor x, int64_t n, int64_t dim, ct_tensor prepend, ct_tensor append, ct_tensor* out);
/* out = x gathered along dim at indices after broadcasting both in every other dim (same rank); has_dim 0: over
 * the flattened x and indices. */
CT_API ct_status ct_take_along_dim(ct_tensor x, ct_tensor indices, int64_t dim, int32_t has_dim, ct_tensor* out);

/* The limits of a dtype, one field per call (torch.finfo / torch.iinfo). */
enum {
    CT_FINFO_BITS = 0,      /* storage bits */
    CT_FINFO_EPS = 1,       /* the difference between 1 and the next value */
    CT_FINFO_MAX = 2,       /* the largest finite value */
    CT_FINFO_MIN = 3,       /* the lowest finite value (-max) */
    CT_FINFO_TINY = 4,      /* the smallest positive normal value (smallest_normal) */
    CT_FINFO_RESOLUTION = 5 /* 10^-(decimal digits of precision) */
};
enum {
    CT_IINFO_BITS = 0, /* storage bits */
    CT_IINFO_MIN = 1,  /* the lowest value */
    CT_IINFO_MAX = 2   /* the largest value */
};
/* *value = field of floating dtype (CT_ERR_DTYPE for others; an unknown field is CT_ERR_INVALID_ARGUMENT). */
CT_API ct_status ct_finfo(ct_dtype dtype, int32_t field, double* value);
/* *value = field of integer dtype (uint8, int32, int64; CT_ERR_DTYPE for others). */
CT_API ct_status ct_iinfo(ct_dtype dtype, int32_t field, int64_t* value);
/* ---- Embedding options and EmbeddingBag (issue 14) ---- */

/* EmbeddingBag reductions (fixed values). */
enum {
    CT_EMBEDDING_BAG_SUM = 0,  /* sum of the bag's rows (times per_sample_weights when given) */
    CT_EMBEDDING_BAG_MEAN = 1, /* mean of the bag's rows */
    CT_EMBEDDING_BAG_MAX = 2   /* elementwise max of the bag's rows (the gradient goes to the first maximum) */
};
/* ct_embedding with torch's options: has_padding_idx != 0 gives the row padding_idx (negative: from the end) no
 * gradient; scale_grad_by_freq != 0 divides each row's gradient by its count in indices. */
CT_API ct_status ct_embedding_ex(ct_tensor weight, ct_tensor indices, int64_t padding_idx, int32_t has_padding_idx,
                                 int32_t scale_grad_by_freq, ct_tensor* out);
/* torch.embedding_renorm_: each distinct row of weight named in indices whose norm_type-norm exceeds max_norm is
 * scaled in place by max_norm / (norm + 1e-7); not recorded by autograd (bumps weight's version when it writes). */
CT_API ct_status ct_embedding_renorm_(ct_tensor weight, ct_tensor indices, double max_norm, double norm_type);
/* Reduces bags of weight's rows ([num, dim]) to out [bags, dim] by mode (CT_EMBEDDING_BAG_*): indices 2-D
 * [bags, n] with offsets NULL (a bag per row), or 1-D with 1-D offsets starting each bag (offsets[0] == 0,
 * non-decreasing; include_last_offset != 0: the last offset ends the last bag). per_sample_weights (NULL, or
 * indices' shape and weight's dtype; sum mode only) scale the rows. Rows equal to padding_idx (when
 * has_padding_idx) are left out; an empty bag gives zeros. scale_grad_by_freq as ct_embedding_ex (sum and mean
 * only: with max it is CT_ERR_INVALID_ARGUMENT, as torch). */
CT_API ct_status ct_embedding_bag(ct_tensor weight, ct_tensor indices, ct_tensor offsets, int32_t mode,
                                  ct_tensor per_sample_weights, int32_t include_last_offset, int64_t padding_idx,
                                  int32_t has_padding_idx, int32_t scale_grad_by_freq, ct_tensor* out);

/* ---- Resampling: interpolate / Upsample (issue 14) ---- */

/* Interpolation modes of ct_interpolate (fixed values). */
enum {
    CT_INTERP_NEAREST = 0,       /* torch 'nearest': source floor(dst * scale) (1/scale_factor when given) */
    CT_INTERP_NEAREST_EXACT = 1, /* torch 'nearest-exact': source floor((dst + 0.5) * scale) */
    CT_INTERP_LINEAR = 2,        /* linear / bilinear / trilinear by the number of spatial dims */
    CT_INTERP_BICUBIC = 3,       /* bicubic (2 spatial dims only; A = -0.75, taps clamped at the edges) */
    CT_INTERP_AREA = 4           /* adaptive average pooling to the output size */
};
/* torch.nn.functional.interpolate of x [N, C, d1..dk] (k = ndim_spatial, 1..3) by mode (CT_INTERP_*): exactly one
 * of size (k output sizes) and scale_factors (k factors; output floor(d * factor)) is non-NULL. align_corners: -1
 * unset, 0 or 1 (linear and bicubic only). recompute_scale_factor != 0 (with scale_factors) computes the output
 * size and then interpolates as if it had been given as size. float32/float64; differentiable to any order. */
CT_API ct_status ct_interpolate(ct_tensor x, const int64_t* size, const double* scale_factors, int32_t ndim_spatial,
                                int32_t mode, int32_t align_corners, int32_t recompute_scale_factor, ct_tensor* out);

/* ---- Normalisation layers (issue 14) ---- */

/* torch.nn.functional.layer_norm: out = (x - mean) / sqrt(var + eps) * weight + bias, mean and (biased) var over
 * x's last n dims, which must equal normalized_shape[0..n); weight / bias (NULL: none) have normalized_shape. */
CT_API ct_status ct_layer_norm(ct_tensor x, const int64_t* normalized_shape, int32_t n, ct_tensor weight,
                               ct_tensor bias, double eps, ct_tensor* out);
/* torch.nn.functional.group_norm: x [N, C, *] normalised over each of num_groups groups of C / num_groups
 * channels (C % num_groups == 0) per sample, then weight / bias ([C], NULL: none) per channel. */
CT_API ct_status ct_group_norm(ct_tensor x, int64_t num_groups, ct_tensor weight, ct_tensor bias, double eps,
                               ct_tensor* out);
/* torch.nn.functional.batch_norm: x [N, C, *] normalised per channel. training != 0: by the batch's statistics
 * (more than one value per channel), and running_mean / running_var ([C], NULL: none) become (1 - momentum) *
 * running + momentum * batch (unbiased variance) in place (their versions bump; not recorded by autograd);
 * training == 0: by running_mean / running_var (required). weight / bias [C] or NULL. */
CT_API ct_status ct_batch_norm(ct_tensor x, ct_tensor running_mean, ct_tensor running_var, ct_tensor weight,
                               ct_tensor bias, int32_t training, double momentum, double eps, ct_tensor* out);

/* ---- the rest of the tensor toolbox: repeat_interleave, meshgrid, median, quantile, cdist (issue 14) ---- */

/* out = x with each element repeated along dim (has_dim 0: over the flattened x): repeats[i] times for an integer
 * repeats tensor (0-d, or 1-D of one value or of dim's length), or repeats_scalar times when repeats is NULL.
 * has_output_size != 0: output_size must equal the total. The gradient sums each element's copies. */
CT_API ct_status ct_repeat_interleave(ct_tensor x, ct_tensor repeats, int64_t repeats_scalar, int64_t dim,
                                      int32_t has_dim, int64_t output_size, int32_t has_output_size, ct_tensor* out);
/* meshgrid indexing (fixed values): ij = matrix (dims in argument order), xy = Cartesian (first two swapped). */
enum { CT_MESHGRID_IJ = 0, CT_MESHGRID_XY = 1 };
/* outs[0..n) = the coordinate grids of n 0-d or 1-D tensors of one dtype and device (expanded views; cap, the
 * slots in outs, must be at least n; all set or none). */
CT_API ct_status ct_meshgrid(const ct_tensor* tensors, int32_t n, int32_t indexing, ct_tensor* outs, int32_t cap);
/* out = the 0-d lower median of all of x's elements (NaN when x holds a NaN; NaN for an empty floating x). */
CT_API ct_status ct_median(ct_tensor x, ct_tensor* out);
/* ct_median ignoring NaN (NaN only when every element is NaN). */
CT_API ct_status ct_nanmedian(ct_tensor x, ct_tensor* out);
/* values / indices (int64) = the lower median along dim and its position (ties: the earliest in a stable
 * ascending sort; a row holding NaN gives its first NaN); either out-pointer may be NULL. */
CT_API ct_status ct_median_dim(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices);
/* ct_median_dim ignoring NaN (an all-NaN row gives NaN at position 0). */
CT_API ct_status ct_nanmedian_dim(ct_tensor x, int64_t dim, int32_t keepdim, ct_tensor* values, ct_tensor* indices);
/* quantile interpolation between the two nearest ranks (fixed values, torch's names). */
enum {
    CT_QUANTILE_LINEAR = 0,   /* lower + (upper - lower) * fraction */
    CT_QUANTILE_LOWER = 1,    /* the lower rank's value */
    CT_QUANTILE_HIGHER = 2,   /* the upper rank's value */
    CT_QUANTILE_MIDPOINT = 3, /* (lower + upper) / 2 */
    CT_QUANTILE_NEAREST = 4   /* the nearest rank's value (half to even) */
};
/* out = the q-quantiles of float32/float64 x along dim (has_dim 0: over all elements); q a 0-d or 1-D tensor of
 * x's dtype with values in [0, 1], or q_scalar when q is NULL. A 1-D q puts its dim first; a NaN makes the result
 * NaN. */
CT_API ct_status ct_quantile(ct_tensor x, ct_tensor q, double q_scalar, int64_t dim, int32_t has_dim,
                             int32_t keepdim, int32_t interpolation, ct_tensor* out);
/* ct_quantile ignoring NaN (NaN only where a whole row is NaN). */
CT_API ct_status ct_nanquantile(ct_tensor x, ct_tensor q, double q_scalar, int64_t dim, int32_t has_dim,
                                int32_t keepdim, int32_t interpolation, ct_tensor* out);
/* out [B.., P, R] = the p-norm distances (p >= 0; INFINITY allowed) between the rows of x1 [B.., P, M] and x2
 * [B.., R, M] (batch dims broadcast). compute_mode as torch: 0 uses the matmul form for p = 2 when P > 25 or
 * R > 25, 1 always for p = 2, 2 never. Outside the matmul form the gradient is 0 where a distance is 0. */
CT_API ct_status ct_cdist(ct_tensor x1, ct_tensor x2, double p, int32_t compute_mode, ct_tensor* out);

/* ---- Least squares with LAPACK's drivers (issue 14) ---- */
/* torch.linalg.lstsq drivers (fixed values). */
enum {
    CT_LSTSQ_GELSY = 0, /* complete orthogonal factorisation with pivoting: any rank (the default) */
    CT_LSTSQ_GELS = 1,  /* QR or LQ: A must have full rank */
    CT_LSTSQ_GELSD = 2, /* SVD, divide and conquer: any rank, gives singular values */
    CT_LSTSQ_GELSS = 3  /* SVD: any rank, gives singular values */
};
/* torch.linalg.lstsq(A, B, rcond, driver) on CPU float32/float64/complex64/complex128 (A and B of one dtype): A
 * [..., m, n], B [..., m, k] (or [..., m] when it has one dim less than A), batch dims broadcast. solution [..., n, k]
 * (the minimum-norm least-squares solution; differentiable as pinv(A) @ B); residuals [..., k] (squared, of the real
 * dtype, only when m > n, the driver is not gelsy and A has full rank, else [0]); rank int64 [...] ([0] for gels);
 * singular_values [..., min(m, n)] (real dtype; gelsd/gelss, else [0]). rcond < 0: eps(real dtype) * max(m, n).
 * Any out-pointer but solution may be NULL. */
CT_API ct_status ct_linalg_lstsq_ex(ct_tensor a, ct_tensor b, double rcond, int32_t driver, ct_tensor* solution,
                                    ct_tensor* residuals, ct_tensor* rank, ct_tensor* singular_values);

/* ---- scatter_reduce (issue 14) ---- */
/* scatter_reduce's reductions (fixed values, torch's names). */
enum {
    CT_SCATTER_SUM = 0,  /* sum */
    CT_SCATTER_PROD = 1, /* product */
    CT_SCATTER_MEAN = 2, /* mean (integer dtypes: floor division) */
    CT_SCATTER_AMAX = 3, /* maximum (NaN propagates) */
    CT_SCATTER_AMIN = 4  /* minimum (NaN propagates) */
};
/* out = x.scatter_reduce(dim, index, src, reduce, include_self): a copy of x where out[... index[i][j] ...] combines
 * src[i][j] (index's shape, over src's leading part) by reduce, together with x's own value when include_self (else
 * the indexed positions start empty). Differentiable as torch 1.13 (amax/amin share the gradient among ties). */
CT_API ct_status ct_scatter_reduce(ct_tensor x, int64_t dim, ct_tensor index, ct_tensor src, int32_t reduce,
                                   int32_t include_self, ct_tensor* out);
/* dst.scatter_reduce_(dim, index, src, reduce, include_self): as ct_scatter_reduce, written into dst. */
CT_API ct_status ct_scatter_reduce_(ct_tensor dst, int64_t dim, ct_tensor index, ct_tensor src, int32_t reduce,
                                    int32_t include_self);
/* ---- mixed precision: autocast and gradient scaling (issue 15) ---- */

/* Autocast: a thread-local region per device type (CT_DEVICE_CPU, CT_DEVICE_CUDA), like grad mode. Inside it the
 * listed ops cast their floating (not float64) inputs on that device type: the matmul family (matmul, linear,
 * conv1d/2d/3d, einsum, attention) to the region's half dtype, losses / linear algebra / quantile / cdist / prod /
 * conv_transpose to float32, cat / stack / index_copy to their widest floating input (torch 1.13's CPU lists; the
 * CUDA lists differ, e.g. softmax in float32: ct_autocast_policy says which). The casts are differentiable: a float32 parameter gets a float32 gradient. Other threads and ops
 * outside the lists are unaffected. A new thread starts outside every region. */
enum {
    CT_AUTOCAST_PASSTHROUGH = 0, /* inputs unchanged */
    CT_AUTOCAST_LOWER_PRECISION = 1, /* floating inputs cast to the region's dtype (float16 / bfloat16) */
    CT_AUTOCAST_FLOAT32 = 2,  /* floating inputs cast to float32 */
    CT_AUTOCAST_PROMOTE = 3   /* floating inputs cast to the widest floating dtype among them */
};
/* Turns autocast on (enabled != 0) or off for device_type on this thread; *previous (may be NULL) gets the old
 * state. An unknown device_type is CT_ERR_INVALID_ARGUMENT. */
CT_API ct_status ct_autocast_set_enabled(int32_t device_type, int32_t enabled, int32_t* previous);
/* *enabled = 1 when this thread is inside an autocast region for device_type, else 0. */
CT_API ct_status ct_autocast_is_enabled(int32_t device_type, int32_t* enabled);
/* Sets the region's lower-precision dtype for device_type on this thread (CT_FLOAT16 or CT_BFLOAT16, others
 * CT_ERR_DTYPE naming it; defaults: bfloat16 on CPU, float16 on CUDA); *previous (may be NULL) gets the old one. */
CT_API ct_status ct_autocast_set_dtype(int32_t device_type, ct_dtype dtype, ct_dtype* previous);
/* *dtype = the lower-precision dtype of device_type's region on this thread. */
CT_API ct_status ct_autocast_get_dtype(int32_t device_type, ct_dtype* dtype);
/* Turns the cast cache on or off on this thread (on by default); returns the previous setting. The cache keeps
 * the lower-precision cast of a float32 leaf that requires grad (a weight) until the outermost region exits. */
CT_API int32_t ct_autocast_set_cache_enabled(int32_t enabled);
/* 1 when this thread's cast cache is on. */
CT_API int32_t ct_autocast_is_cache_enabled(void);
/* Enters one more region level on this thread; returns the new depth. */
CT_API int32_t ct_autocast_increment_nesting(void);
/* Leaves one region level (not below 0); returns the new depth; at 0 the cast cache is cleared. */
CT_API int32_t ct_autocast_decrement_nesting(void);
/* Drops every cached cast of this thread. */
CT_API void ct_autocast_clear_cache(void);
/* Number of casts in this thread's cache (for tests). */
CT_API int64_t ct_autocast_cache_size(void);
/* *policy = the CT_AUTOCAST_* policy of op (the C function's name without "ct_", e.g. "linear") for
 * device_type; CT_AUTOCAST_PASSTHROUGH for ops not listed. */
CT_API ct_status ct_autocast_policy(const char* op, int32_t device_type, int32_t* policy);

/* Gradient scaling (torch's _amp_foreach_non_finite_check_and_unscale_): each of n gradients (floating, on
 * found_inf's device) is multiplied in place by inv_scale (one-element float32); found_inf (one-element float32)
 * becomes 1 when any of them held an inf or NaN, and is left as it was otherwise. Arguments are checked before
 * anything is written; not recorded by autograd. */
CT_API ct_status ct_amp_non_finite_check_and_unscale_(const ct_tensor* grads, int32_t n, ct_tensor found_inf,
                                                     ct_tensor inv_scale);
/* torch's _amp_update_scale_, in place: found_inf > 0 -> scale *= backoff_factor and growth_tracker = 0;
 * otherwise growth_tracker += 1 and, once it reaches growth_interval (>= 1), scale *= growth_factor (kept only if
 * finite) and growth_tracker = 0. scale, found_inf: one-element float32; growth_tracker: one-element int32; one
 * device; factors finite and positive. */
CT_API ct_status ct_amp_update_scale_(ct_tensor scale, ct_tensor growth_tracker, ct_tensor found_inf,
                                      double growth_factor, double backoff_factor, int64_t growth_interval);
/* ---- complex64 / complex128 (issue 15) ----
 * Complex tensors (CT_COMPLEX64, CT_COMPLEX128) are CPU only; an op without a complex kernel refuses them with
 * CT_ERR_NOT_SUPPORTED naming the op and dtype. Casting complex to a real dtype keeps the real part (to bool:
 * nonzero). Gradients of complex tensors follow torch: dL/dRe + i dL/dIm. ct_tensor_item refuses a complex
 * tensor (use ct_tensor_item_complex). */
/* The one element of t as real and imag parts (a real dtype gives imag 0); neither pointer may be NULL. */
CT_API ct_status ct_tensor_item_complex(ct_tensor t, double* real, double* imag);
/* A complex64/complex128 tensor of shape filled with real + i imag. */
CT_API ct_status ct_full_complex(const int64_t* shape, int32_t ndim, double real, double imag, ct_dtype dtype,
                                 ct_device device, ct_tensor* out);
/* out = real + i imag (torch.complex): both float32 (complex64) or both float64 (complex128), broadcast. */
CT_API ct_status ct_complex(ct_tensor real, ct_tensor imag, ct_tensor* out);
/* The real part of complex x as a view (shares storage); a real x is returned as a new handle to itself. */
CT_API ct_status ct_real(ct_tensor x, ct_tensor* out);
/* The imaginary part of complex x as a view; a real x is an error (CT_ERR_DTYPE). */
CT_API ct_status ct_imag(ct_tensor x, ct_tensor* out);
/* The [..., 2] float view of complex x's (real, imag) pairs (torch.view_as_real). */
CT_API ct_status ct_view_as_real(ct_tensor x, ct_tensor* out);
/* The complex view of float32/float64 x [..., 2] (last stride 1, other strides and offset even). */
CT_API ct_status ct_view_as_complex(ct_tensor x, ct_tensor* out);
/* The complex conjugate (a new tensor; a real x is returned as it is). */
CT_API ct_status ct_conj(ct_tensor x, ct_tensor* out);
/* The argument atan2(imag, real) of each element (a float tensor); real x gives 0 or pi (NaN stays NaN). */
CT_API ct_status ct_angle(ct_tensor x, ct_tensor* out);
/* out = abs * (cos(angle) + i sin(angle)); abs and angle float32 or float64 of one dtype (broadcast). */
CT_API ct_status ct_polar(ct_tensor abs, ct_tensor angle, ct_tensor* out);

/* ---- binary math (issue 14) ----
 * torch's two-argument elementwise functions: a and b broadcast and promote as ct_add (a number operand is a
 * ct_wrapped_scalar); complex inputs are refused (CT_ERR_NOT_SUPPORTED). "Floating only" ops refuse integer and
 * bool results with CT_ERR_DTYPE (as torch 1.13); float16/bfloat16 compute in float32. */
/* log(e^a + e^b) computed without overflow; floating only; logaddexp(-inf, -inf) = -inf. */
CT_API ct_status ct_logaddexp(ct_tensor a, ct_tensor b, ct_tensor* out);
/* log2(2^a + 2^b) computed without overflow; floating only. */
CT_API ct_status ct_logaddexp2(ct_tensor a, ct_tensor b, ct_tensor* out);
/* sqrt(a^2 + b^2) without intermediate overflow; floating only. */
CT_API ct_status ct_hypot(ct_tensor a, ct_tensor b, ct_tensor* out);
/* a * log(b), 0 where a == 0 and NaN where b is NaN; integer and bool inputs give float32. */
CT_API ct_status ct_xlogy(ct_tensor a, ct_tensor b, ct_tensor* out);
/* The magnitude of a with the sign of b (-0.0 counts as negative); integer and bool inputs give float32. */
CT_API ct_status ct_copysign(ct_tensor a, ct_tensor b, ct_tensor* out);
/* The larger element, a NaN ignored unless both are NaN (ct_maximum propagates NaN); any real dtype. */
CT_API ct_status ct_fmax(ct_tensor a, ct_tensor b, ct_tensor* out);
/* The smaller element, a NaN ignored unless both are NaN (ct_minimum propagates NaN); any real dtype. */
CT_API ct_status ct_fmin(ct_tensor a, ct_tensor b, ct_tensor* out);
/* 0 where a < 0 (or NaN), b where a == 0, 1 where a > 0; a and b of one dtype unless b is a wrapped scalar. */
CT_API ct_status ct_heaviside(ct_tensor a, ct_tensor b, ct_tensor* out);
/* The next representable value after a in the direction of b; float32 and float64 only; no gradient. */
CT_API ct_status ct_nextafter(ct_tensor a, ct_tensor b, ct_tensor* out);
/* Integer ops: integer tensors (and bool for and/or/xor/not), promoted as ct_add; floating and complex inputs are
 * refused (CT_ERR_DTYPE); no gradient. */
/* a & b, bitwise (bool: logical and). */
CT_API ct_status ct_bitwise_and(ct_tensor a, ct_tensor b, ct_tensor* out);
/* a | b, bitwise (bool: logical or). */
CT_API ct_status ct_bitwise_or(ct_tensor a, ct_tensor b, ct_tensor* out);
/* a ^ b, bitwise (bool: logical xor). */
CT_API ct_status ct_bitwise_xor(ct_tensor a, ct_tensor b, ct_tensor* out);
/* ~x, bitwise (bool: logical not). */
CT_API ct_status ct_bitwise_not(ct_tensor x, ct_tensor* out);
/* a << b (wrapping); a count b < 0 or >= the bit width gives 0. */
CT_API ct_status ct_bitwise_left_shift(ct_tensor a, ct_tensor b, ct_tensor* out);
/* a >> b (arithmetic for signed types); a count b < 0 or >= the bit width gives the sign fill (0 or -1). */
CT_API ct_status ct_bitwise_right_shift(ct_tensor a, ct_tensor b, ct_tensor* out);
/* The greatest common divisor (>= 0; gcd(0, 0) = 0) of integer tensors. */
CT_API ct_status ct_gcd(ct_tensor a, ct_tensor b, ct_tensor* out);
/* The least common multiple |a / gcd(a, b) * b| (0 when a or b is 0) of integer tensors. */
CT_API ct_status ct_lcm(ct_tensor a, ct_tensor b, ct_tensor* out);
/* self + value * tensor1 * tensor2 (broadcast, promoted over the three; an integer result truncates value). */
CT_API ct_status ct_addcmul(ct_tensor self, ct_tensor tensor1, ct_tensor tensor2, double value, ct_tensor* out);
/* self + value * tensor1 / tensor2; tensor1 and tensor2 may not both be integer (CT_ERR_DTYPE, as torch 1.13). */
CT_API ct_status ct_addcdiv(ct_tensor self, ct_tensor tensor1, ct_tensor tensor2, double value, ct_tensor* out);

/* ---- linalg.eig (issue 14) ---- */
/* Eigenvalues [..., n] and right eigenvectors (columns of unit norm, [..., n, n]) of real square A by LAPACK geev,
 * both complex (complex64 for float32 A, complex128 for float64), as torch.linalg.eig; A must be finite (CPU). */
CT_API ct_status ct_linalg_eig(ct_tensor a, ct_tensor* eigenvalues, ct_tensor* eigenvectors);
/* The eigenvalues of ct_linalg_eig alone (torch.linalg.eigvals). */
CT_API ct_status ct_linalg_eigvals(ct_tensor a, ct_tensor* out);

/* ---- unary math (issue 14) ---- */
/* Elementwise float functions as torch 1.13: integer/bool inputs give float32, float16/bfloat16 compute in float32;
 * complex inputs are computed by asin..atanh, sinh, cosh, sinc and sgn and refused by the others (CT_ERR_NOT_SUPPORTED
 * naming op and dtype). Each is differentiable (twice and more) unless it says otherwise. */
/* out = arcsine of x (NaN outside [-1, 1] for real x). */
CT_API ct_status ct_asin(ct_tensor x, ct_tensor* out);
/* out = arccosine of x (NaN outside [-1, 1] for real x). */
CT_API ct_status ct_acos(ct_tensor x, ct_tensor* out);
/* out = arctangent of x. */
CT_API ct_status ct_atan(ct_tensor x, ct_tensor* out);
/* out = hyperbolic sine of x. */
CT_API ct_status ct_sinh(ct_tensor x, ct_tensor* out);
/* out = hyperbolic cosine of x. */
CT_API ct_status ct_cosh(ct_tensor x, ct_tensor* out);
/* out = inverse hyperbolic sine of x. */
CT_API ct_status ct_asinh(ct_tensor x, ct_tensor* out);
/* out = inverse hyperbolic cosine of x (NaN below 1 for real x). */
CT_API ct_status ct_acosh(ct_tensor x, ct_tensor* out);
/* out = inverse hyperbolic tangent of x (+-inf at +-1, NaN outside [-1, 1] for real x). */
CT_API ct_status ct_atanh(ct_tensor x, ct_tensor* out);
/* out = the error function erf(x). */
CT_API ct_status ct_erf(ct_tensor x, ct_tensor* out);
/* out = the complementary error function 1 - erf(x), accurate where erf(x) is near 1. */
CT_API ct_status ct_erfc(ct_tensor x, ct_tensor* out);
/* out = the inverse error function (+-inf at +-1, NaN outside [-1, 1]). */
CT_API ct_status ct_erfinv(ct_tensor x, ct_tensor* out);
/* out = log |gamma(x)| (+inf at non-positive integers). */
CT_API ct_status ct_lgamma(ct_tensor x, ct_tensor* out);
/* out = psi(x) = d/dx log gamma(x) (-inf at +0, +inf at -0, NaN at negative integers). */
CT_API ct_status ct_digamma(ct_tensor x, ct_tensor* out);
/* out = log(x / (1 - x)) of x clamped to [eps, 1 - eps]; eps < 0 means no clamp (torch's eps=None), eps <= 0.5. */
CT_API ct_status ct_logit(ct_tensor x, double eps, ct_tensor* out);
/* out = sin(pi x) / (pi x), 1 at 0 (the normalized sinc). */
CT_API ct_status ct_sinc(ct_tensor x, ct_tensor* out);
/* out = x / |x| for complex x (0 at 0); ct_sign for real x (keeps the dtype). */
CT_API ct_status ct_sgn(ct_tensor x, ct_tensor* out);
/* out = x * pi / 180 (integer/bool give float32). */
CT_API ct_status ct_deg2rad(ct_tensor x, ct_tensor* out);
/* out = x * 180 / pi (integer/bool give float32). */
CT_API ct_status ct_rad2deg(ct_tensor x, ct_tensor* out);
/* out = bool tensor, true where the sign bit of x is set (-0.0 included; integers: x < 0); no gradient. */
CT_API ct_status ct_signbit(ct_tensor x, ct_tensor* out);
/* out = bool tensor, true where x is +inf; no gradient. */
CT_API ct_status ct_isposinf(ct_tensor x, ct_tensor* out);
/* out = bool tensor, true where x is -inf; no gradient. */
CT_API ct_status ct_isneginf(ct_tensor x, ct_tensor* out);
/* out = a new handle to x itself (+x shares storage and history, as torch); bool x is CT_ERR_DTYPE. */
CT_API ct_status ct_positive(ct_tensor x, ct_tensor* out);
/* out = the modified Bessel function of the first kind of order 0, I0(x). */
CT_API ct_status ct_i0(ct_tensor x, ct_tensor* out);

/* ---- complex scalars (issue 15) ---- */
/* A language's complex number real + i imag as a 0-d wrapped scalar (like ct_wrapped_scalar): it promotes by
 * category only, as torch 1.13 - float32 / integer / bool tensor -> complex64, float64 -> complex128, complex
 * tensors keep their dtype, float16 / bfloat16 -> complex64 (torch's complex32 does not exist here). */
CT_API ct_status ct_wrapped_scalar_complex(double real, double imag, ct_tensor* out);

/* ---- more reductions and products (issue 14) ---- */
/* out = log(cumsum(exp(x))) along dim, computed stably (float32/float64; float16/bfloat16 in float32; complex,
 * integer and bool x are CT_ERR_DTYPE as torch 1.13's CPU); differentiable (torch's formula, twice and more). */
CT_API ct_status ct_logcumsumexp(ct_tensor x, int64_t dim, ct_tensor* out);
/* *min, *max = the smallest and largest element of x in one pass, over all elements (has_dim 0) or along dim
 * (keepdim as ct_max_dim); NaN propagates; an empty reduced slice is CT_ERR_INDEX; complex is CT_ERR_DTYPE. No
 * gradient (torch 1.13 has no derivative for aminmax). */
CT_API ct_status ct_aminmax(ct_tensor x, int64_t dim, int32_t has_dim, int32_t keepdim, ct_tensor* min,
                            ct_tensor* max);
/* *var, *mean = ct_var and ct_mean of x over dims (NULL/0 = all) with the same correction and keepdim; gradients
 * flow through both results. Floating x only (CT_ERR_DTYPE otherwise). */
CT_API ct_status ct_var_mean(ct_tensor x, const int64_t* dims, int32_t ndims, double correction, int32_t keepdim,
                             ct_tensor* var, ct_tensor* mean);
/* *std, *mean = ct_std and ct_mean of x over dims (NULL/0 = all), as ct_var_mean. */
CT_API ct_status ct_std_mean(ct_tensor x, const int64_t* dims, int32_t ndims, double correction, int32_t keepdim,
                             ct_tensor* std, ct_tensor* mean);
/* out = the Kronecker product of a and b (the shorter shape padded with leading 1s; dtype promoted as ct_mul). */
CT_API ct_status ct_kron(ct_tensor a, ct_tensor b, ct_tensor* out);
/* out = sum over the paired dims dims_a[i] of a and dims_b[i] of b of a * b: a's other dims then b's (torch's
 * tensordot; its int form n is dims_a = [-n .. -1], dims_b = [0 .. n-1]). Paired sizes must match or one be 1. */
CT_API ct_status ct_tensordot(ct_tensor a, ct_tensor b, const int64_t* dims_a, int32_t ndims_a, const int64_t* dims_b,
                              int32_t ndims_b, ct_tensor* out);
/* out = the inner product over the last dims of a and b (a * b when either is 0-d). */
CT_API ct_status ct_inner(ct_tensor a, ct_tensor b, ct_tensor* out);

/* ---- type promotion rules (issue 15) ---- */
/* dtype = the dtype two tensors of dtypes a and b promote to (torch.promote_types: float16 + bfloat16 -> float32,
 * int8 + uint8 -> int16, ...). */
CT_API ct_status ct_promote_types(ct_dtype a, ct_dtype b, ct_dtype* dtype);
/* castable = 1 when a value of dtype from may be stored in dtype to by an op's result or an in-place op
 * (torch.can_cast: no cast to a lower category, bool < integer < floating < complex), else 0. */
CT_API ct_status ct_can_cast(ct_dtype from, ct_dtype to, int32_t* castable);
/* dtype = the dtype of an elementwise op of a and b (torch.result_type): a 0-d tensor or a wrapped scalar
 * (ct_wrapped_scalar*) promotes only when it is of a higher category. */
CT_API ct_status ct_result_type(ct_tensor a, ct_tensor b, ct_dtype* dtype);

/* ---- bool wrapped scalar (issue 15) ---- */
/* A language's bool as a 0-d bool wrapped number (like ct_wrapped_scalar): it promotes as torch's Python bool, so it
 * never changes a tensor's dtype (bool tensor + true stays bool); value != 0 is true. */
CT_API ct_status ct_wrapped_scalar_bool(int32_t value, ct_tensor* out);

#ifdef __cplusplus
}
#endif

#endif /* CTENSOR_H */
