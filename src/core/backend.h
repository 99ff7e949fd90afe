// backend.h - the contract between libctensor and the separately built CUDA backend (libctensor_cuda.so.1):
// a versioned C function table returned by one extern "C" entry point, and the core's loader for it.
// Note [Backend loading]: libctensor never links CUDA. The first CUDA use dlopen()s the backend (path from
// $CTENSOR_CUDA_BACKEND, else next to libctensor itself) exactly once; when that fails, the reason is kept
// and every CUDA request fails with CT_ERR_NOT_COMPILED naming it.
#pragma once
#include <stddef.h>
#include <stdint.h>

/* ---- the C contract (compiled by both sides; keep it C-compatible and append-only) ---- */

#define CT_CUDA_BACKEND_VERSION 1u
#define CT_CUDA_BACKEND_ENTRY "ct_cuda_backend_entry_v1"
#define CT_CUDA_BACKEND_FILE "libctensor_cuda.so.1"
#define CT_CUDA_MAX_DIMS 12     /* dims of a coalesced layout; the core splits outer dims beyond this */
#define CT_CUDA_MAX_OPERANDS 3  /* out, a, b */
#define CT_CUDA_HOST (-1)       /* the "device" of host memory in memcpy */

/* Binary elementwise ops; the functors are those of core/scalar_math.h. Append-only. */
enum ct_cuda_binary_op {
    CT_CUDA_ADD = 0, /* a + alpha * b */
    CT_CUDA_SUB,     /* a - alpha * b */
    CT_CUDA_MUL,
    CT_CUDA_DIV,
    CT_CUDA_MAXIMUM,
    CT_CUDA_MINIMUM,
    CT_CUDA_EQ, /* comparisons and logical ops write bool */
    CT_CUDA_NE,
    CT_CUDA_LT,
    CT_CUDA_LE,
    CT_CUDA_GT,
    CT_CUDA_GE,
    CT_CUDA_LOGICAL_AND,
    CT_CUDA_LOGICAL_OR,
    CT_CUDA_LOGICAL_XOR,
    CT_CUDA_NUM_BINARY_OPS
};

/* ---- nn family (cuda-nn) ---- */
/* Elementwise losses of the pointwise_loss entries (core/loss_math.h). Append-only. */
enum ct_cuda_loss_op {
    CT_CUDA_LOSS_MSE = 0,          /* (x - t)^2 */
    CT_CUDA_LOSS_BCE,              /* -(t log x + (1 - t) log(1 - x)), logs clamped at -100 */
    CT_CUDA_LOSS_BCE_WITH_LOGITS,  /* binary cross entropy of sigmoid(x) */
    CT_CUDA_NUM_LOSS_OPS
};
/* Class losses of the class_loss entries: rows of [rows, classes] scores with one class per row. */
enum ct_cuda_class_loss_op { CT_CUDA_CROSS_ENTROPY = 0, CT_CUDA_NLL_LOSS, CT_CUDA_NUM_CLASS_LOSS_OPS };
/* Indexing along one dim, over a 3-operand layout (a, index, b); step is the indexed dim's stride:
   gather a[i] = b[i + index[i] * step]; scatter a[i + index[i] * step] = b[i]; scatter_add += (atomic). */
enum ct_cuda_index_op { CT_CUDA_GATHER = 0, CT_CUDA_SCATTER, CT_CUDA_SCATTER_ADD, CT_CUDA_NUM_INDEX_OPS };
/* ---- unary, where and reductions (cuda-ops) ---- */

/* Unary elementwise ops (ct_cuda_backend.unary); the functors are those of core/scalar_math.h. Append-only.
   Float ops are defined for float32/float64; NEG, ABS, SIGN, RELU, CLAMP and LOGICAL_NOT for every dtype. */
enum ct_cuda_unary_op {
    CT_CUDA_NEG = 0,
    CT_CUDA_ABS,
    CT_CUDA_SIGN,
    CT_CUDA_EXP,
    CT_CUDA_LOG,
    CT_CUDA_LOG1P,
    CT_CUDA_EXPM1,
    CT_CUDA_SQRT,
    CT_CUDA_RSQRT,
    CT_CUDA_SIN,
    CT_CUDA_COS,
    CT_CUDA_TAN,
    CT_CUDA_TANH,
    CT_CUDA_SIGMOID,
    CT_CUDA_RELU,
    CT_CUDA_GELU,
    CT_CUDA_GELU_GRAD, /* d gelu / dx */
    CT_CUDA_SILU,
    CT_CUDA_SOFTPLUS,
    CT_CUDA_FLOOR,
    CT_CUDA_CEIL,
    CT_CUDA_ROUND,
    CT_CUDA_RECIPROCAL,
    CT_CUDA_LOGICAL_NOT, /* writes bool */
    CT_CUDA_POW_SCALAR,  /* x ** p0 */
    CT_CUDA_CLAMP,       /* clamp(x, p0, p1); integer dtypes saturate the bounds to their range */
    /* unary math (issue 14): float32/float64 */
    CT_CUDA_ASIN,
    CT_CUDA_ACOS,
    CT_CUDA_ATAN,
    CT_CUDA_SINH,
    CT_CUDA_COSH,
    CT_CUDA_ASINH,
    CT_CUDA_ACOSH,
    CT_CUDA_ATANH,
    CT_CUDA_ERF,
    CT_CUDA_ERFC,
    CT_CUDA_ERFINV,
    CT_CUDA_LGAMMA,
    CT_CUDA_POLYGAMMA, /* polygamma(p0, x), p0 an integer >= 0 (digamma: 0) */
    CT_CUDA_LOGIT,     /* log(x / (1 - x)) after clamping x to [p0, 1 - p0]; p0 < 0: no clamp */
    CT_CUDA_SINC,
    CT_CUDA_SIGNBIT,   /* writes bool */
    CT_CUDA_I0,
    CT_CUDA_I1,
    CT_CUDA_NUM_UNARY_OPS
};

/* Binary ops beyond ct_cuda_binary_op, same entry (appended codes). */
enum ct_cuda_binary_op_more {
    CT_CUDA_POW = CT_CUDA_NUM_BINARY_OPS,
    CT_CUDA_ATAN2,     /* floating dtypes only */
    CT_CUDA_REMAINDER, /* Python modulo; integer divisors must be nonzero (checked by the core) */
    CT_CUDA_FLOOR_DIVIDE, /* Python //; integer divisors must be nonzero (checked by the core) */
    /* binary math (issue 14): LOGADDEXP .. NEXTAFTER floating dtypes only; FMAX, FMIN, HEAVISIDE any real dtype */
    CT_CUDA_LOGADDEXP,
    CT_CUDA_LOGADDEXP2,
    CT_CUDA_HYPOT,
    CT_CUDA_XLOGY,
    CT_CUDA_COPYSIGN,
    CT_CUDA_NEXTAFTER,
    CT_CUDA_FMAX,
    CT_CUDA_FMIN,
    CT_CUDA_HEAVISIDE,
    /* integer ops (issue 14): integer dtypes only (BITWISE_AND/OR/XOR also bool) */
    CT_CUDA_BITWISE_AND,
    CT_CUDA_BITWISE_OR,
    CT_CUDA_BITWISE_XOR,
    CT_CUDA_LEFT_SHIFT,  /* counts outside [0, width): 0 (Note [Shift counts] in core/scalar_math.h) */
    CT_CUDA_RIGHT_SHIFT, /* counts outside [0, width): the sign fill */
    CT_CUDA_GCD,
    CT_CUDA_LCM,
    CT_CUDA_NUM_BINARY_OPS_V2
};

/* Reductions (ct_cuda_backend.reduce). Append-only. Output dtypes: SUM/PROD float -> same, else int64;
   MAX/MIN same dtype (+ int64 index of the first extreme, first NaN); ALL/ANY bool; VAR/STD/LOGSUMEXP/NORM
   float only, same dtype. Empty slices give the identity (0, 1, true, false, NaN for var, -inf, 0). */
enum ct_cuda_reduce_op {
    CT_CUDA_REDUCE_SUM = 0,
    CT_CUDA_REDUCE_PROD,
    CT_CUDA_REDUCE_MAX, /* values to out and/or indices to out_index (either may be NULL) */
    CT_CUDA_REDUCE_MIN,
    CT_CUDA_REDUCE_ALL,
    CT_CUDA_REDUCE_ANY,
    CT_CUDA_REDUCE_VAR,       /* p0 = correction */
    CT_CUDA_REDUCE_STD,       /* p0 = correction */
    CT_CUDA_REDUCE_LOGSUMEXP,
    CT_CUDA_REDUCE_NORM,      /* p0 = p (0, 1, 2, any p > 0, INFINITY, -INFINITY) */
    CT_CUDA_NUM_REDUCE_OPS
};

/* Operands of where: like ct_cuda_layout with room for 4 (out, cond, a, b). */
#define CT_CUDA_MAX_OPERANDS4 4
typedef struct ct_cuda_layout4 {
    int32_t ndim;
    int32_t nargs;
    int64_t sizes[CT_CUDA_MAX_DIMS];
    int64_t strides[CT_CUDA_MAX_OPERANDS4][CT_CUDA_MAX_DIMS];
} ct_cuda_layout4;

/* A reduction of one input: kept dims (row-major order = the contiguous output's order) and reduced dims
   (row-major order = the index reported by MAX/MIN), each with the input's strides in elements.
   Input pointers point at element 0; kept_ndim/reduced_ndim 0 means one position. */
typedef struct ct_cuda_reduce_layout {
    int32_t kept_ndim;
    int32_t reduced_ndim;
    int64_t kept_sizes[CT_CUDA_MAX_DIMS];
    int64_t kept_strides[CT_CUDA_MAX_DIMS];
    int64_t reduced_sizes[CT_CUDA_MAX_DIMS];
    int64_t reduced_strides[CT_CUDA_MAX_DIMS];
} ct_cuda_reduce_layout;

/* ---- conv, pooling, optimizers (cuda-conv) ---- */
/* Coefficients of one Adam / AdamW step (core/optim_math.h AdamCoeffs, in double; the kernel converts). */
typedef struct ct_cuda_adam {
    double shrink, l2, w1, b2, w2, eps, step_size, bias2_sqrt;
    int32_t decoupled; /* AdamW: w *= shrink before the update */
    int32_t l2_decay;  /* Adam with weight decay: g += l2 * w */
} ct_cuda_adam;
/* One SGD step (core/optim_math.h sgd_element): lr, weight decay, momentum, keep = 1 - dampening, and its flags. */
typedef struct ct_cuda_sgd {
    double lr, wd, mom, keep;
    int32_t decay;    /* g += wd * w */
    int32_t momentum; /* keep a momentum buffer */
    int32_t first;    /* the buffer's first step: buf = d (not read) */
    int32_t nesterov; /* step along d + mom * buf */
} ct_cuda_sgd;
/* Note [Norm geometry] (cpu/norm_kernels.h): x contiguous [N, C, S], rows of groups (or per channel). */
typedef struct ct_cuda_norm {
    int64_t N, C, S, groups;
    int32_t per_channel;
} ct_cuda_norm;
/* One conv2d sample: input [C, H, W], weight [O, C/groups, KH, KW], output plane [OH, OW]. */
typedef struct ct_cuda_conv2d {
    int64_t C, H, W, KH, KW, OH, OW;
    int64_t stride[2], padding[2], dilation[2];
    int64_t groups;
} ct_cuda_conv2d;
/* Pooling over planes of [H, W] into [OH, OW] (count_include_pad averages, as ops/nn_pool.cpp). */
typedef struct ct_cuda_pool2d {
    int64_t planes, H, W, OH, OW;
    int64_t kernel[2], stride[2], padding[2];
} ct_cuda_pool2d;
/* Operations of the pool2d entry; idx holds argmax positions h * W + w within a plane. Append-only. */
enum ct_cuda_pool_op {
    CT_CUDA_MAX_POOL = 0,      /* out = window max of in, out_idx = its position (first max, NaN wins) */
    CT_CUDA_AVG_POOL,          /* out = window mean of in */
    CT_CUDA_MAX_POOL_BACKWARD, /* out [planes, H, W] = sum of in [planes, OH, OW] over outputs whose idx hits it */
    CT_CUDA_AVG_POOL_BACKWARD, /* out [planes, H, W] = sum of in / divisor over the windows holding it */
    CT_CUDA_MAX_POOL_GATHER,   /* out [planes, OH, OW] = in [planes, H, W] at idx */
    CT_CUDA_NUM_POOL_OPS
};

/* ---- pooling options and adaptive pooling (pool-options) ---- */
/* Pooling with PyTorch's options (core/pool_window.h has the window math). base as ct_cuda_pool2d; window taps
   are dilation apart; averages divide by divisor_override when > 0, else by the window size counting padding
   (count_include_pad != 0) or by the number of input elements. adaptive != 0: output o of an axis of size in
   covers [floor(o * in / out), ceil((o + 1) * in / out)) and kernel, stride, padding and dilation are unused. */
typedef struct ct_cuda_pool2d_ex {
    ct_cuda_pool2d base;
    int64_t dilation[2];
    int64_t divisor_override;
    int32_t count_include_pad;
    int32_t adaptive;
} ct_cuda_pool2d_ex;

/* Operands that share one shape: sizes plus per-operand strides in elements (operand 0 is the output).
   Data pointers passed alongside point at each operand's element 0. ndim 0 means one element. */
typedef struct ct_cuda_layout {
    int32_t ndim;
    int32_t nargs;
    int64_t sizes[CT_CUDA_MAX_DIMS];
    int64_t strides[CT_CUDA_MAX_OPERANDS][CT_CUDA_MAX_DIMS];
} ct_cuda_layout;

/* Every int32_t result is a ct_status value (0 = CT_OK); on failure last_error() has the message.
   dtype arguments are ct_dtype values; device arguments are CUDA device indices. */
/* ---- N-d convolution (issue 14) ---- */
/* One N-d convolution sample normalised to 3 spatial dims (ops/conv_geom.h Note [Conv rank]): input
   [C, in[0], in[1], in[2]], weight [O, C/groups, k[0], k[1], k[2]], output [out[0], out[1], out[2]]. */
typedef struct ct_cuda_conv_nd {
    int64_t C, groups;
    int64_t in[3], k[3], out[3];
    int64_t stride[3], padding[3], dilation[3];
} ct_cuda_conv_nd;

/* ---- dense linear algebra on cuSOLVER (issue 14) ---- */
/* Operations of the linalg entry: LAPACK's routines of the same names on a batch of contiguous column-major
   float32/float64 matrices in device memory. Matrix i of an operand with r x c matrices starts at element
   i * r * c and has leading dimension r. Every size fits int32 (the core checks). Append-only. */
enum ct_cuda_linalg_op {
    CT_CUDA_GETRF = 0, /* a [n, n] -> L and U of P A = L U in place, ipiv [n] (int32, 1-based); info */
    CT_CUDA_GETRS,     /* b [n, k] -> op(A)^-1 b from getrf's a and ipiv; op(A) = A^T when trans */
    CT_CUDA_POTRF,     /* a [n, n] -> its upper (upper) or lower Cholesky factor in that triangle (the other
                          triangle is undefined afterwards: cuSOLVER's potrfBatched uses it as workspace); info */
    CT_CUDA_GEQRF,     /* a [m, n] -> R on and above the diagonal, Householder vectors below; tau [min(m, n)] */
    CT_CUDA_ORGQR,     /* a [m, n] whose first k columns hold geqrf's vectors (tau [k]; k <= n <= m) -> Q [m, n] */
    CT_CUDA_SYEVD,     /* a [n, n] symmetric, read from its upper (upper) or lower triangle -> w [n] ascending and,
                          when vectors, the orthonormal eigenvectors as a's columns; info */
    CT_CUDA_GESVD,     /* a [m, n] with m >= n (overwritten) -> s [n] descending and, when vectors, u [m, full ? m : n]
                          and vt [n, n] (V^T); info */
    CT_CUDA_TRSM,      /* b [m, n] -> X with op(A) X = b (left) or X op(A) = b (right) for a [k, k] (k = m when left,
                          else n) triangular: only its upper (upper) or lower triangle is read, its diagonal taken
                          as 1 when unit; op(A) = A^T when trans. No singularity check */
    CT_CUDA_NUM_LINALG_OPS
};
/* Arguments of one linalg call; unused pointers may be NULL. info, when the op names it, is host memory [batch]
   receiving LAPACK's info code per matrix (0: success; getrf: the first zero pivot, 1-based; potrf: the order of
   the first leading minor that is not positive-definite; syevd/gesvd: > 0 when the algorithm did not converge). */
typedef struct ct_cuda_linalg_args {
    int32_t op;    /* ct_cuda_linalg_op */
    int32_t dtype; /* CT_FLOAT32 or CT_FLOAT64 */
    int64_t batch, m, n, k;
    int32_t upper, trans, left, unit, vectors, full;
    void* a;
    void* b;
    void* w; /* tau (geqrf, orgqr), w (syevd) or s (gesvd) */
    void* u;
    void* vt;
    int32_t* ipiv; /* device memory [batch, n] */
    int32_t* info; /* host memory [batch] */
} ct_cuda_linalg_args;

/* ---- recurrent layers on CUDA (issue 14) ---- */
/* Operations of the rnn_step entry: the gate math of one step of a fused recurrent layer-direction
   (ops/rnn_layer.cpp Note [RNN on the device], core/rnn_math.h). Append-only. */
enum ct_cuda_rnn_op { CT_CUDA_RNN_STEP_FORWARD = 0, CT_CUDA_RNN_STEP_BACKWARD, CT_CUDA_NUM_RNN_OPS };
/* Arguments of one rnn_step call over `rows` batch rows of hidden size H with G gates per unit (mode: RNN_RELU 0,
   RNN_TANH 1 with G = 1, LSTM 2 with G = 4 (i f g o), GRU 3 with G = 3 (r z n)). Every operand is contiguous
   row-major, its pointer at the step's first row; [rows, GH] means G * H per row. Pointers a mode does not use
   may be NULL.
   Forward: gates [rows, GH] holds x @ w_ih^T and receives the activations; hw [rows, GH] = h @ w_hh^T; bias [GH]
   joins b_ih + b_hh (for GRU's n gate b_in only) and bhn [H] is GRU's b_hn, both NULL without biases; h [rows, H]
   the previous hidden state (GRU); c [rows, H] the cell state, updated in place (LSTM); cell [rows, H] receives
   tanh(c') (LSTM); hn [rows, H] receives W_hn h + b_hn (GRU); h_out [rows, H] receives the new hidden state.
   Backward: gates, cell, c_prev [rows, H] (the cell state entering the step), hn and h_prev [rows, H] (GRU) as
   saved by the forward; dh [rows, H] the gradient of the new hidden state (before any projection); dc [rows, H]
   the new cell state's gradient, replaced by the previous one's (LSTM); dg [rows, GH] receives the gradients of
   the gate pre-activations (x side); dgh [rows, GH] those of the h side (GRU: n's is dn * r); dh_out [rows, H]
   receives dh's direct part z * dh (GRU; may be dh itself). */
typedef struct ct_cuda_rnn_step_args {
    int32_t op;    /* ct_cuda_rnn_op */
    int32_t mode;  /* RNN_RELU 0, RNN_TANH 1, LSTM 2, GRU 3 */
    int32_t dtype; /* CT_FLOAT32 or CT_FLOAT64 */
    int64_t rows, H;
    void* gates;
    const void* hw;
    const void* bias;
    const void* bhn;
    const void* h;
    void* c;
    void* cell;
    void* hn;
    void* h_out;
    const void* c_prev;
    const void* h_prev;
    const void* dh;
    void* dc;
    void* dg;
    void* dgh;
    void* dh_out;
} ct_cuda_rnn_step_args;

typedef struct ct_cuda_backend {
    uint32_t struct_size; /* sizeof(ct_cuda_backend) as the backend was built */
    uint32_t version;     /* CT_CUDA_BACKEND_VERSION */
    /* Initialises the CUDA runtime once. OK: *count >= 1. Otherwise CT_ERR_NOT_COMPILED and last_error()
       says why ("no CUDA driver: ...", "no CUDA device"). */
    int32_t (*init)(int32_t* count);
    /* Thread-local message of this thread's last failed call. */
    const char* (*last_error)(void);
    /* Caching allocator: stream-ordered on the device's stream; free never fails. */
    int32_t (*malloc)(int32_t device, size_t nbytes, void** ptr);
    void (*free)(int32_t device, void* ptr, size_t nbytes);
    /* stats[0] allocated, [1] reserved (allocated + cached), [2] peak allocated, in bytes. */
    int32_t (*memory_stats)(int32_t device, int64_t stats[3]);
    int32_t (*empty_cache)(void);
    int32_t (*synchronize)(int32_t device);
    /* Contiguous bytes between host (CT_CUDA_HOST) and devices; returns once a host destination is written. */
    int32_t (*memcpy)(void* dst, int32_t dst_device, const void* src, int32_t src_device, size_t nbytes);
    /* dst[i] = (dst_dtype) src[i] over layout (2 operands: dst, src). */
    int32_t (*copy)(int32_t device, const ct_cuda_layout* layout, void* dst, int32_t dst_dtype, const void* src,
                    int32_t src_dtype);
    /* dst[i] = value converted to dtype over layout (1 operand). */
    int32_t (*fill)(int32_t device, const ct_cuda_layout* layout, void* dst, int32_t dtype, double value);
    /* out[i] = op(a[i], b[i]) with a, b of dtype; out has dtype (arithmetic) or bool (comparisons, logical). */
    int32_t (*binary)(int32_t device, int32_t op, const ct_cuda_layout* layout, void* out, const void* a,
                      const void* b, int32_t dtype, double alpha);
    /* Row-major C[i] = alpha * op(A[i]) @ op(B[i]) + beta * C[i] for i < batch (float32/float64, cuBLAS;
       float16/bfloat16 with float32 accumulation where dtype_supported says so).
       op(X) is X transposed when trans_x != 0; ld* are row-major leading dims; stride_* step between batches. */
    int32_t (*gemm)(int32_t device, int32_t dtype, int32_t trans_a, int32_t trans_b, int64_t m, int64_t n, int64_t k,
                    double alpha, const void* a, int64_t lda, int64_t stride_a, const void* b, int64_t ldb,
                    int64_t stride_b, double beta, void* c, int64_t ldc, int64_t stride_c, int64_t batch);

    /* ---- nn family (cuda-nn): float32/float64, contiguous operands ---- */
    /* y = softmax (log_ != 0: log_softmax) of x seen as [outer, n, inner], along n. */
    int32_t (*softmax)(int32_t device, int32_t dtype, int32_t log_, int64_t outer, int64_t n, int64_t inner,
                       const void* x, void* y);
    /* gx from the incoming gradient g and the forward output y (layout as softmax). */
    int32_t (*softmax_backward)(int32_t device, int32_t dtype, int32_t log_, int64_t outer, int64_t n, int64_t inner,
                                const void* g, const void* y, void* gx);
    /* ct_cuda_class_loss_op over x [rows, classes] and int64 cls [rows] (-1: ignored row, loss 0): loss[rows];
       cross entropy also writes lse[rows] = logsumexp of the row (lse may be NULL for nll). */
    int32_t (*class_loss)(int32_t device, int32_t dtype, int32_t op, int64_t rows, int64_t classes, const void* x,
                          const int64_t* cls, void* loss, void* lse);
    /* gx [rows, classes] (all written) = w_i * (exp(x - lse_i) - onehot(cls_i)) for cross entropy,
       -w_i * onehot(cls_i) for nll; w_i = 0 for ignored rows, else scale * (g_per_row ? g[i] : g[0]). */
    int32_t (*class_loss_backward)(int32_t device, int32_t dtype, int32_t op, int64_t rows, int64_t classes,
                                   const void* x, const void* lse, const int64_t* cls, const void* g,
                                   int32_t g_per_row, double scale, void* gx);
    /* out[i] = loss(x[i], t[i]) for i < n (ct_cuda_loss_op). */
    int32_t (*pointwise_loss)(int32_t device, int32_t dtype, int32_t op, int64_t n, const void* x, const void* t,
                              void* out);
    /* gx[i] = g_i * dloss/dx, gt[i] = g_i * dloss/dt (either may be NULL); g_i = scale * (g_per_elem ? g[i] : g[0]). */
    int32_t (*pointwise_loss_backward)(int32_t device, int32_t dtype, int32_t op, int64_t n, const void* x,
                                       const void* t, const void* g, int32_t g_per_elem, double scale, void* gx,
                                       void* gt);
    /* ct_cuda_index_op over layout (3 operands: a, index, b); index is int64 or int32 and already bounds-checked;
       a and b have dtype. Duplicate scatter targets: any one of the values (scatter) or their sum (scatter_add). */
    int32_t (*index)(int32_t device, int32_t op, const ct_cuda_layout* layout, void* a, const void* index,
                     int32_t index_dtype, const void* b, int32_t dtype, int64_t step);
    /* out[i] = mask[i] ? value (converted to dtype) : x[i] over layout (3 operands: out, x, bool mask). */
    int32_t (*masked_fill)(int32_t device, const ct_cuda_layout* layout, void* out, const void* x, const void* mask,
                           int32_t dtype, double value);
    /* ---- unary, where and reductions (cuda-ops) ---- */
    /* out[i] = op(x[i]) with x of dtype; out has dtype (bool for LOGICAL_NOT); p0, p1 as in ct_cuda_unary_op.
       Layout: 2 operands (out, x). */
    int32_t (*unary)(int32_t device, int32_t op, const ct_cuda_layout* layout, void* out, const void* x,
                     int32_t dtype, double p0, double p1);
    /* out[i] = cond[i] ? a[i] : b[i]; cond bool, a/b/out of dtype. Layout: 4 operands (out, cond, a, b). */
    int32_t (*where)(int32_t device, const ct_cuda_layout4* layout, void* out, const void* cond, const void* a,
                     const void* b, int32_t dtype);
    /* Reduces x (dtype) into contiguous out (and out_index, int64, for MAX/MIN); dtypes as in ct_cuda_reduce_op. */
    int32_t (*reduce)(int32_t device, int32_t op, const ct_cuda_reduce_layout* layout, void* out, void* out_index,
                      const void* x, int32_t dtype, double p0);
    /* In-place inclusive cumulative sum of contiguous data viewed as [outer, n, inner] along n (reversed when
       reverse != 0). dtype float32 (accumulates in double), float64 or int64; float16/bfloat16 (issue 15:
       accumulates in double, each prefix rounded once through float). */
    int32_t (*cumsum)(int32_t device, void* data, int32_t dtype, int64_t outer, int64_t n, int64_t inner,
                      int32_t reverse);

    /* ---- conv, pooling, optimizers (cuda-conv) ---- */
    /* One fused Adam / AdamW step over n contiguous elements of dtype: parameter w, gradient g, moments m, v. */
    int32_t (*adam)(int32_t device, int32_t dtype, int64_t n, void* w, const void* g, void* m, void* v,
                    const ct_cuda_adam* coeffs);
    /* im2col of count samples x (contiguous [count, C, H, W]): the value for sample n, channel c = g * (C/groups)
       + cl, kernel tap (i, j) and output position p (row-major over [OH, OW]) goes to col[n * col_strides[0] +
       g * col_strides[1] + ((cl * KH + i) * KW + j) * col_strides[2] + p]; 0 where the tap is in the padding. */
    int32_t (*im2col)(int32_t device, int32_t dtype, const ct_cuda_conv2d* geom, int64_t count, const void* x,
                      void* col, const int64_t col_strides[3]);
    /* The adjoint of im2col with the sample-major layout (col contiguous [count, C * KH * KW, OH * OW]): every
       element of x [count, C, H, W] is written with the sum of the col entries im2col would take from it. */
    int32_t (*col2im)(int32_t device, int32_t dtype, const ct_cuda_conv2d* geom, int64_t count, const void* col,
                      void* x);
    /* ct_cuda_pool_op over contiguous planes; idx is read by the backward and gather ops, out_idx written by
       CT_CUDA_MAX_POOL (either may be NULL otherwise). */
    int32_t (*pool2d)(int32_t device, int32_t dtype, int32_t op, const ct_cuda_pool2d* geom, const void* in,
                      const int64_t* idx, void* out, int64_t* out_idx);

    /* ---- pooling options and adaptive pooling (pool-options) ---- */
    /* The pool2d entry with ct_cuda_pool2d_ex geometry (dilation, divisor rules, adaptive windows). A window
       holding no input element gives -inf and idx -1 for max; idx -1 is skipped by the backward and gather. */
    int32_t (*pool2d_ex)(int32_t device, int32_t dtype, int32_t op, const ct_cuda_pool2d_ex* geom, const void* in,
                         const int64_t* idx, void* out, int64_t* out_idx);

    /* ---- N-d convolution (issue 14) ---- */
    /* im2col with ct_cuda_conv_nd geometry: sample n, channel c = g * (C/groups) + cl, tap t (row-major over k)
       and output position p (row-major over out) go to col[n * col_strides[0] + g * col_strides[1] +
       (cl * taps + t) * col_strides[2] + p]; 0 where the tap is in the padding. */
    int32_t (*im2col_nd)(int32_t device, int32_t dtype, const ct_cuda_conv_nd* geom, int64_t count, const void* x,
                         void* col, const int64_t col_strides[3]);
    /* The adjoint of im2col_nd with the sample-major layout (col contiguous [count, C * taps, out plane]). */
    int32_t (*col2im_nd)(int32_t device, int32_t dtype, const ct_cuda_conv_nd* geom, int64_t count, const void* col,
                         void* x);

    /* ---- float16/bfloat16 on CUDA (issue 15) ---- */
    /* 1 when tensors of dtype (ct_dtype) may live on this backend's devices, else 0. A backend answering 1 for
       CT_FLOAT16 / CT_BFLOAT16 takes them in copy (every direction), fill, binary, unary, where, index,
       masked_fill (load as float, compute in float, round to nearest even on store), gemm (float32
       accumulation) softmax / softmax_backward (rows in float, double sums), cumsum, adam and the native half
       blocks at the end of the table (reduce, reduce_to, sgd, norm_apply);
       the other entries keep their float32/float64 contract (the core computes those ops on float32 copies,
       ops/half_compute.h). */
    int32_t (*dtype_supported)(int32_t dtype);

    /* ---- dense linear algebra on cuSOLVER (issue 14) ---- */
    /* One ct_cuda_linalg_op over args->batch matrices (cuSOLVER / cuBLAS on the device's stream); returns once
       args->info is written. A failed factorisation is not an error here: it is reported through info. */
    int32_t (*linalg)(int32_t device, const ct_cuda_linalg_args* args);

    /* ---- recurrent layers on CUDA (issue 14) ---- */
    /* One ct_cuda_rnn_op over args->rows rows (one kernel on the device's stream, float32/float64). */
    int32_t (*rnn_step)(int32_t device, const ct_cuda_rnn_step_args* args);
    /* ---- more reductions (issue 14) ---- */
    /* In-place inclusive log-cumulative-sum-exp of contiguous data viewed as [outer, n, inner] along n. dtype
       float32 (accumulates in double) or float64. */
    int32_t (*logcumsumexp)(int32_t device, void* data, int32_t dtype, int64_t outer, int64_t n, int64_t inner);
    /* ---- native float16/bfloat16 kernels (issue 15, cudanative) ---- */
    /* reduce with out's dtype named: reduce's rule, or CT_FLOAT32 for a float16/bfloat16 x and an op with a float
       result (SUM, PROD, VAR, STD, LOGSUMEXP, NORM): the float result before its rounding to half. reduce itself
       takes float16/bfloat16 x too (half out; MAX/MIN values exact), loaded as float, accumulated in double. */
    int32_t (*reduce_to)(int32_t device, int32_t op, const ct_cuda_reduce_layout* layout, void* out,
                         int32_t out_dtype, void* out_index, const void* x, int32_t dtype, double p0);
    /* ---- native float16/bfloat16 kernels (issue 15, cudahalf3) ---- */
    /* One fused SGD step over n contiguous elements of dtype (float32/float64/float16/bfloat16; half loaded as
       float, updated in float, rounded once on store): parameter w, gradient g, momentum buffer buf (NULL
       without momentum). The adam entry takes float16/bfloat16 the same way. */
    int32_t (*sgd)(int32_t device, int32_t dtype, int64_t n, void* w, const void* g, void* buf,
                   const ct_cuda_sgd* coeffs);
    /* y = (x - mean[row]) * rstd[row] * w[c] + b[c] over geom (x, y contiguous of dtype float16/bfloat16, w / b
       [C] of dtype or NULL for 1 / 0; mean, rstd float32 per row): float ops rounded one by one, y rounded once. */
    int32_t (*norm_apply)(int32_t device, int32_t dtype, const ct_cuda_norm* geom, const void* x, const float* mean,
                          const float* rstd, const void* w, const void* b, void* y);
} ct_cuda_backend;

/* The one symbol the backend exports: the table for the requested version, or NULL if unsupported. */
typedef const ct_cuda_backend* (*ct_cuda_backend_entry_fn)(uint32_t version);

#ifdef __cplusplus
/* ---- C++ helpers shared by the core and the kernel tests ---- */
namespace ct {

// Fills L for nargs operands of one shape: size-1 dims are dropped and adjacent dims merged when every
// operand allows it (same rule as cpu/loops.h). Returns false when more than CT_CUDA_MAX_DIMS dims remain.
// Layout is ct_cuda_layout or ct_cuda_layout4 (nargs at most its operand count).
template <typename Layout>
inline bool make_cuda_layout(int32_t ndim, const int64_t* sizes, const int64_t* const* strides, int32_t nargs,
                             Layout* L) {
    L->ndim = 0;
    L->nargs = nargs;
    for (int32_t d = 0; d < ndim; ++d) {
        if (sizes[d] == 1) continue;
        bool merge = L->ndim > 0;
        for (int32_t k = 0; k < nargs && merge; ++k)
            merge = L->strides[k][L->ndim - 1] == strides[k][d] * sizes[d];
        if (merge) {
            L->sizes[L->ndim - 1] *= sizes[d];
            for (int32_t k = 0; k < nargs; ++k) L->strides[k][L->ndim - 1] = strides[k][d];
            continue;
        }
        if (L->ndim == CT_CUDA_MAX_DIMS) return false;
        L->sizes[L->ndim] = sizes[d];
        for (int32_t k = 0; k < nargs; ++k) L->strides[k][L->ndim] = strides[k][d];
        ++L->ndim;
    }
    return true;
}

// The loaded backend, or nullptr with *reason set (loads it on the first call; thread-safe).
const ct_cuda_backend* cuda_backend_or_null(const char** reason);
// The loaded backend; throws CT_ERR_NOT_COMPILED "<op>: CUDA is not available: <reason>".
const ct_cuda_backend& cuda_backend(const char* op);
// Number of usable devices (0 when unavailable).
int32_t cuda_device_count();
// Throws like cuda_backend, or CT_ERR_DEVICE when index is not a usable device.
const ct_cuda_backend& cuda_device_backend(const char* op, int32_t index);
// Another symbol exported by the loaded backend library (such as its NCCL table), or nullptr (also when CUDA is
// unavailable).
void* cuda_backend_symbol(const char* name);
// Throws the backend's last error (status from a failed table call) prefixed with op.
[[noreturn]] void cuda_fail(const char* op, int32_t status);
inline void cuda_check(const char* op, int32_t status) {
    if (status != 0) cuda_fail(op, status);
}

}  // namespace ct
#endif
