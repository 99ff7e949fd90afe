//! Raw FFI declarations of ctensor's C ABI, `include/ctensor.h`, written by hand in header order.
//!
//! Everything here is `unsafe` and follows the C rules: every handle returned through an out-parameter
//! is a new reference the caller must release; inputs are never consumed; failures return a
//! [`ct_status`] and leave a thread-local message in [`ct_last_error`]. The safe API is the `ctensor`
//! crate. `tests/header_coverage.rs` checks that every `CT_API` function and enum constant of the
//! header is declared here with the same number of parameters.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_void};

// ---- Versions ------------------------------------------------------------------------------------

pub const CT_VERSION_MAJOR: i32 = 1;
pub const CT_VERSION_MINOR: i32 = 0;
pub const CT_VERSION_PATCH: i32 = 0;
pub const CT_ABI_VERSION: i32 = 1;

// ---- Handles (opaque, reference counted) ---------------------------------------------------------

/// Opaque tensor object (never dereferenced; handles are encoded slot numbers).
#[repr(C)]
pub struct ct_tensor_s {
    _p: [u8; 0],
}
/// Opaque random number generator object.
#[repr(C)]
pub struct ct_generator_s {
    _p: [u8; 0],
}
/// Opaque optimizer object.
#[repr(C)]
pub struct ct_optimizer_s {
    _p: [u8; 0],
}
/// Opaque set of named tensors with string metadata (a safetensors file).
#[repr(C)]
pub struct ct_safetensors_s {
    _p: [u8; 0],
}
/// Opaque group of processes (ranks) that run collectives.
#[repr(C)]
pub struct ct_process_group_s {
    _p: [u8; 0],
}
/// Opaque asynchronous collective in flight.
#[repr(C)]
pub struct ct_work_s {
    _p: [u8; 0],
}
/// Opaque gradient averager over a process group (data-parallel training).
#[repr(C)]
pub struct ct_data_parallel_s {
    _p: [u8; 0],
}
/// DLPack's legacy managed tensor (declared in `<dlpack/dlpack.h>`; only pointers cross the ABI).
#[repr(C)]
pub struct DLManagedTensor {
    _p: [u8; 0],
}
/// DLPack 1.x versioned managed tensor (only pointers cross the ABI).
#[repr(C)]
pub struct DLManagedTensorVersioned {
    _p: [u8; 0],
}

pub type ct_tensor = *mut ct_tensor_s;
pub type ct_generator = *mut ct_generator_s;
pub type ct_optimizer = *mut ct_optimizer_s;
pub type ct_safetensors = *mut ct_safetensors_s;
pub type ct_process_group = *mut ct_process_group_s;
pub type ct_work = *mut ct_work_s;
pub type ct_data_parallel = *mut ct_data_parallel_s;

// ---- Status codes (fixed values, append-only) ----------------------------------------------------

pub type ct_status = i32;
pub const CT_OK: ct_status = 0;
pub const CT_ERR_INVALID_ARGUMENT: ct_status = 1;
pub const CT_ERR_INVALID_HANDLE: ct_status = 2;
pub const CT_ERR_SHAPE: ct_status = 3;
pub const CT_ERR_DTYPE: ct_status = 4;
pub const CT_ERR_DEVICE: ct_status = 5;
pub const CT_ERR_INDEX: ct_status = 6;
pub const CT_ERR_OUT_OF_MEMORY: ct_status = 7;
pub const CT_ERR_NOT_COMPILED: ct_status = 8;
pub const CT_ERR_NOT_SUPPORTED: ct_status = 9;
pub const CT_ERR_AUTOGRAD: ct_status = 10;
pub const CT_ERR_INTERNAL: ct_status = 11;
pub const CT_ERR_CALLBACK: ct_status = 12;
pub const CT_ERR_VERSION: ct_status = 13;
pub const CT_ERR_IO: ct_status = 14;
pub const CT_ERR_DISTRIBUTED: ct_status = 15;

// ---- Dtypes, devices, reductions -----------------------------------------------------------------

pub type ct_dtype = i32;
pub const CT_FLOAT32: ct_dtype = 0;
pub const CT_FLOAT64: ct_dtype = 1;
pub const CT_INT32: ct_dtype = 2;
pub const CT_INT64: ct_dtype = 3;
pub const CT_UINT8: ct_dtype = 4;
pub const CT_BOOL: ct_dtype = 5;
pub const CT_FLOAT16: ct_dtype = 6;
pub const CT_BFLOAT16: ct_dtype = 7;
pub const CT_INT8: ct_dtype = 8;
pub const CT_INT16: ct_dtype = 9;
pub const CT_COMPLEX64: ct_dtype = 10;
pub const CT_COMPLEX128: ct_dtype = 11;

pub const CT_DEVICE_CPU: i32 = 1;
pub const CT_DEVICE_CUDA: i32 = 2;

/// A device: DLPack device type and index (0 for CPU). Passed by value.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ct_device {
    pub type_: i32,
    pub index: i32,
}

pub const CT_REDUCTION_NONE: i32 = 0;
pub const CT_REDUCTION_MEAN: i32 = 1;
pub const CT_REDUCTION_SUM: i32 = 2;
pub const CT_REDUCTION_BATCHMEAN: i32 = 3;

// ---- Distributed reduce ops ----------------------------------------------------------------------

pub type ct_reduce_op = i32;
pub const CT_REDUCE_SUM: ct_reduce_op = 0;
pub const CT_REDUCE_MEAN: ct_reduce_op = 1;
pub const CT_REDUCE_MAX: ct_reduce_op = 2;
pub const CT_REDUCE_MIN: ct_reduce_op = 3;
pub const CT_REDUCE_PRODUCT: ct_reduce_op = 4;

// ---- torch.linalg QR modes -----------------------------------------------------------------------

pub type ct_qr_mode = i32;
pub const CT_QR_REDUCED: ct_qr_mode = 0;
pub const CT_QR_COMPLETE: ct_qr_mode = 1;
pub const CT_QR_R: ct_qr_mode = 2;

// ---- EmbeddingBag modes ----------------------------------------------------------------------------

pub const CT_EMBEDDING_BAG_SUM: i32 = 0;
pub const CT_EMBEDDING_BAG_MEAN: i32 = 1;
pub const CT_EMBEDDING_BAG_MAX: i32 = 2;

// ---- Callback types ------------------------------------------------------------------------------

/// Called once when a wrapped external buffer is no longer used (from any thread).
pub type ct_deleter_fn = Option<unsafe extern "C" fn(data: *mut c_void, ctx: *mut c_void)>;
/// Backward of a custom function (see `ct_custom_function_apply`).
pub type ct_backward_fn = Option<
    unsafe extern "C" fn(
        ctx: *mut c_void,
        grad_outputs: *const ct_tensor,
        n_outputs: i32,
        grad_inputs: *mut ct_tensor,
        n_inputs: i32,
    ) -> ct_status,
>;
/// Called once when a custom function's node is freed.
pub type ct_ctx_release_fn = Option<unsafe extern "C" fn(ctx: *mut c_void)>;
/// A tensor hook (see `ct_tensor_register_hook`): may set `*replacement` to a new gradient handle.
pub type ct_tensor_hook_fn =
    Option<unsafe extern "C" fn(grad: ct_tensor, ctx: *mut c_void, replacement: *mut ct_tensor) -> ct_status>;

extern "C" {
    // ---- Library, versions, errors, threads ----
    pub fn ct_version() -> i32;
    pub fn ct_abi_version() -> i32;
    pub fn ct_check_abi(abi_major: i32, min_minor: i32) -> ct_status;
    pub fn ct_last_error() -> *const c_char;
    pub fn ct_last_status() -> ct_status;
    pub fn ct_status_name(status: ct_status) -> *const c_char;
    pub fn ct_set_error(status: ct_status, message: *const c_char) -> ct_status;
    pub fn ct_dtype_name(dtype: ct_dtype) -> *const c_char;
    pub fn ct_dtype_size(dtype: ct_dtype) -> i32;
    pub fn ct_cpu() -> ct_device;
    pub fn ct_cuda(index: i32) -> ct_device;
    pub fn ct_live_handles() -> i64;
    pub fn ct_set_num_threads(n: i32) -> ct_status;
    pub fn ct_get_num_threads() -> i32;
    pub fn ct_cuda_device_count() -> i32;
    pub fn ct_cuda_is_available(reason: *mut c_char, cap: i32) -> i32;
    pub fn ct_cuda_synchronize(device: i32) -> ct_status;
    pub fn ct_cuda_memory_stats(device: i32, allocated: *mut i64, reserved: *mut i64, peak: *mut i64) -> ct_status;
    pub fn ct_cuda_empty_cache() -> ct_status;
    pub fn ct_set_cpu_memory_limit(bytes: i64) -> ct_status;
    pub fn ct_cpu_memory_stats(allocated: *mut i64, cached: *mut i64, limit: *mut i64) -> ct_status;

    // ---- Tensor handles and metadata ----
    pub fn ct_tensor_retain(t: ct_tensor) -> ct_tensor;
    pub fn ct_tensor_release(t: ct_tensor);
    pub fn ct_tensor_ndim(t: ct_tensor, ndim: *mut i32) -> ct_status;
    pub fn ct_tensor_shape(t: ct_tensor, dims: *mut i64, cap: i32, ndim: *mut i32) -> ct_status;
    pub fn ct_tensor_strides(t: ct_tensor, strides: *mut i64, cap: i32, ndim: *mut i32) -> ct_status;
    pub fn ct_tensor_offset(t: ct_tensor, offset: *mut i64) -> ct_status;
    pub fn ct_tensor_numel(t: ct_tensor, numel: *mut i64) -> ct_status;
    pub fn ct_tensor_dtype(t: ct_tensor, dtype: *mut ct_dtype) -> ct_status;
    pub fn ct_tensor_device(t: ct_tensor, device: *mut ct_device) -> ct_status;
    pub fn ct_tensor_is_contiguous(t: ct_tensor, contiguous: *mut i32) -> ct_status;
    pub fn ct_tensor_data_ptr(t: ct_tensor, data: *mut *mut c_void) -> ct_status;
    pub fn ct_tensor_version(t: ct_tensor, version: *mut i64) -> ct_status;
    pub fn ct_tensor_shares_storage(a: ct_tensor, b: ct_tensor, shares: *mut i32) -> ct_status;
    pub fn ct_tensor_to_string(t: ct_tensor, buf: *mut c_char, cap: i64, len: *mut i64) -> ct_status;

    // ---- Creation ----
    pub fn ct_empty(shape: *const i64, ndim: i32, dtype: ct_dtype, device: ct_device, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_zeros(shape: *const i64, ndim: i32, dtype: ct_dtype, device: ct_device, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_ones(shape: *const i64, ndim: i32, dtype: ct_dtype, device: ct_device, out: *mut ct_tensor) -> ct_status;
    pub fn ct_full(
        shape: *const i64,
        ndim: i32,
        value: f64,
        dtype: ct_dtype,
        device: ct_device,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_scalar_tensor(value: f64, dtype: ct_dtype, device: ct_device, out: *mut ct_tensor) -> ct_status;
    pub fn ct_wrapped_scalar(value: f64, is_integer: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_arange(
        start: f64,
        end: f64,
        step: f64,
        dtype: ct_dtype,
        device: ct_device,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_linspace(
        start: f64,
        end: f64,
        steps: i64,
        dtype: ct_dtype,
        device: ct_device,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_eye(n: i64, m: i64, dtype: ct_dtype, device: ct_device, out: *mut ct_tensor) -> ct_status;
    pub fn ct_empty_like(t: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_zeros_like(t: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_ones_like(t: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_full_like(t: ct_tensor, value: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_tensor_from_data(
        data: *const c_void,
        nbytes: i64,
        shape: *const i64,
        ndim: i32,
        dtype: ct_dtype,
        device: ct_device,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_tensor_from_blob(
        data: *mut c_void,
        shape: *const i64,
        strides: *const i64,
        ndim: i32,
        dtype: ct_dtype,
        device: ct_device,
        deleter: ct_deleter_fn,
        ctx: *mut c_void,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_tensor_copy_to_host(t: ct_tensor, dst: *mut c_void, nbytes: i64) -> ct_status;
    pub fn ct_tensor_item(t: ct_tensor, value: *mut f64) -> ct_status;
    pub fn ct_tensor_item_int64(t: ct_tensor, value: *mut i64) -> ct_status;

    // ---- Random numbers ----
    pub fn ct_generator_new(seed: u64, out: *mut ct_generator) -> ct_status;
    pub fn ct_generator_retain(g: ct_generator) -> ct_generator;
    pub fn ct_generator_release(g: ct_generator);
    pub fn ct_generator_seed(g: ct_generator, seed: u64) -> ct_status;
    pub fn ct_manual_seed(seed: u64) -> ct_status;
    pub fn ct_rand(
        shape: *const i64,
        ndim: i32,
        dtype: ct_dtype,
        device: ct_device,
        gen: ct_generator,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_randn(
        shape: *const i64,
        ndim: i32,
        dtype: ct_dtype,
        device: ct_device,
        gen: ct_generator,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_randint(
        low: i64,
        high: i64,
        shape: *const i64,
        ndim: i32,
        dtype: ct_dtype,
        device: ct_device,
        gen: ct_generator,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_bernoulli(p: ct_tensor, gen: ct_generator, out: *mut ct_tensor) -> ct_status;
    pub fn ct_randperm(n: i64, device: ct_device, gen: ct_generator, out: *mut ct_tensor) -> ct_status;

    // ---- Views and layout ----
    pub fn ct_reshape(t: ct_tensor, shape: *const i64, ndim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_view(t: ct_tensor, shape: *const i64, ndim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_transpose(t: ct_tensor, d0: i64, d1: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_permute(t: ct_tensor, perm: *const i64, ndim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_squeeze(t: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_squeeze_all(t: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_unsqueeze(t: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_expand(t: ct_tensor, shape: *const i64, ndim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_flatten(t: ct_tensor, start_dim: i64, end_dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_narrow(t: ct_tensor, dim: i64, start: i64, length: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_slice(t: ct_tensor, dim: i64, start: i64, end: i64, step: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_select(t: ct_tensor, dim: i64, index: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_diagonal(t: ct_tensor, offset: i64, dim1: i64, dim2: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_contiguous(t: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_clone(t: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_detach(t: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_to_dtype(t: ct_tensor, dtype: ct_dtype, out: *mut ct_tensor) -> ct_status;
    pub fn ct_to_device(t: ct_tensor, device: ct_device, out: *mut ct_tensor) -> ct_status;

    // ---- Elementwise unary ops ----
    pub fn ct_neg(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_abs(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_sign(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_exp(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_log(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_log1p(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_expm1(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_sqrt(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_rsqrt(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_sin(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_cos(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_tan(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_tanh(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_sigmoid(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_relu(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_gelu(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_silu(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_softplus(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_floor(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_ceil(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_round(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_reciprocal(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_logical_not(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_pow_scalar(x: ct_tensor, exponent: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_clamp(x: ct_tensor, min: f64, has_min: i32, max: f64, has_max: i32, out: *mut ct_tensor) -> ct_status;

    // ---- Elementwise binary ops ----
    pub fn ct_add(a: ct_tensor, b: ct_tensor, alpha: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_sub(a: ct_tensor, b: ct_tensor, alpha: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_mul(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_div(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_pow(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_maximum(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_minimum(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_atan2(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_floor_divide(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_remainder(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_eq(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_ne(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_lt(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_le(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_gt(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_ge(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_logical_and(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_logical_or(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_logical_xor(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_where(cond: ct_tensor, a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;

    // ---- Reductions (dims NULL / ndims 0 reduces over all dims) ----
    pub fn ct_sum(x: ct_tensor, dims: *const i64, ndims: i32, keepdim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_mean(x: ct_tensor, dims: *const i64, ndims: i32, keepdim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_prod(x: ct_tensor, dims: *const i64, ndims: i32, keepdim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_var(
        x: ct_tensor,
        dims: *const i64,
        ndims: i32,
        correction: f64,
        keepdim: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_std(
        x: ct_tensor,
        dims: *const i64,
        ndims: i32,
        correction: f64,
        keepdim: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_logsumexp(x: ct_tensor, dims: *const i64, ndims: i32, keepdim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_norm(x: ct_tensor, p: f64, dims: *const i64, ndims: i32, keepdim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_all(x: ct_tensor, dims: *const i64, ndims: i32, keepdim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_any(x: ct_tensor, dims: *const i64, ndims: i32, keepdim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_max(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_min(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_max_dim(
        x: ct_tensor,
        dim: i64,
        keepdim: i32,
        values: *mut ct_tensor,
        indices: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_min_dim(
        x: ct_tensor,
        dim: i64,
        keepdim: i32,
        values: *mut ct_tensor,
        indices: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_argmax(x: ct_tensor, dim: i64, keepdim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_argmin(x: ct_tensor, dim: i64, keepdim: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_argmax_all(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_argmin_all(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_cumsum(x: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;

    // ---- Linear algebra ----
    pub fn ct_matmul(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_dot(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_outer(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_t(x: ct_tensor, out: *mut ct_tensor) -> ct_status;

    // ---- Indexing and joining ----
    pub fn ct_index_select(x: ct_tensor, dim: i64, index: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_gather(x: ct_tensor, dim: i64, index: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_scatter(x: ct_tensor, dim: i64, index: ct_tensor, src: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_scatter_add(x: ct_tensor, dim: i64, index: ct_tensor, src: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_masked_fill(x: ct_tensor, mask: ct_tensor, value: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_masked_select(x: ct_tensor, mask: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_nonzero(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_cat(tensors: *const ct_tensor, n: i32, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_stack(tensors: *const ct_tensor, n: i32, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_split(x: ct_tensor, split_size: i64, dim: i64, outs: *mut ct_tensor, cap: i32, n: *mut i32) -> ct_status;
    pub fn ct_chunk(x: ct_tensor, chunks: i64, dim: i64, outs: *mut ct_tensor, cap: i32, n: *mut i32) -> ct_status;

    // ---- Sorting, scans and reordering ----
    pub fn ct_sort(
        x: ct_tensor,
        dim: i64,
        descending: i32,
        stable: i32,
        values: *mut ct_tensor,
        indices: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_argsort(x: ct_tensor, dim: i64, descending: i32, stable: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_topk(
        x: ct_tensor,
        k: i64,
        dim: i64,
        largest: i32,
        sorted: i32,
        values: *mut ct_tensor,
        indices: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_kthvalue(
        x: ct_tensor,
        k: i64,
        dim: i64,
        keepdim: i32,
        values: *mut ct_tensor,
        indices: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_unique(
        x: ct_tensor,
        sorted: i32,
        values: *mut ct_tensor,
        inverse: *mut ct_tensor,
        counts: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_cumprod(x: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_flip(x: ct_tensor, dims: *const i64, ndims: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_roll(
        x: ct_tensor,
        shifts: *const i64,
        nshifts: i32,
        dims: *const i64,
        ndims: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_tril(x: ct_tensor, diagonal: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_triu(x: ct_tensor, diagonal: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_einsum(equation: *const c_char, operands: *const ct_tensor, n: i32, out: *mut ct_tensor) -> ct_status;

    // ---- In-place ops ----
    pub fn ct_add_(dst: ct_tensor, b: ct_tensor, alpha: f64) -> ct_status;
    pub fn ct_sub_(dst: ct_tensor, b: ct_tensor, alpha: f64) -> ct_status;
    pub fn ct_mul_(dst: ct_tensor, b: ct_tensor) -> ct_status;
    pub fn ct_div_(dst: ct_tensor, b: ct_tensor) -> ct_status;
    pub fn ct_zero_(dst: ct_tensor) -> ct_status;
    pub fn ct_fill_(dst: ct_tensor, value: f64) -> ct_status;
    pub fn ct_copy_(dst: ct_tensor, src: ct_tensor) -> ct_status;
    pub fn ct_clamp_(dst: ct_tensor, min: f64, has_min: i32, max: f64, has_max: i32) -> ct_status;

    // ---- Neural-network functions ----
    pub fn ct_linear(x: ct_tensor, weight: ct_tensor, bias: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_softmax(x: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_log_softmax(x: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_cross_entropy(
        logits: ct_tensor,
        target: ct_tensor,
        reduction: i32,
        ignore_index: i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_nll_loss(
        log_probs: ct_tensor,
        target: ct_tensor,
        reduction: i32,
        ignore_index: i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_cross_entropy_ex(
        logits: ct_tensor,
        target: ct_tensor,
        weight: ct_tensor,
        reduction: i32,
        ignore_index: i64,
        label_smoothing: f64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_nll_loss_ex(
        log_probs: ct_tensor,
        target: ct_tensor,
        weight: ct_tensor,
        reduction: i32,
        ignore_index: i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_mse_loss(input: ct_tensor, target: ct_tensor, reduction: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_binary_cross_entropy(
        probs: ct_tensor,
        target: ct_tensor,
        reduction: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_binary_cross_entropy_with_logits(
        logits: ct_tensor,
        target: ct_tensor,
        reduction: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_dropout(x: ct_tensor, p: f64, training: i32, gen: ct_generator, out: *mut ct_tensor) -> ct_status;
    pub fn ct_embedding(weight: ct_tensor, indices: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_conv2d(
        x: ct_tensor,
        weight: ct_tensor,
        bias: ct_tensor,
        stride: *const i64,
        padding: *const i64,
        dilation: *const i64,
        groups: i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_max_pool2d(
        x: ct_tensor,
        kernel: *const i64,
        stride: *const i64,
        padding: *const i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_avg_pool2d(
        x: ct_tensor,
        kernel: *const i64,
        stride: *const i64,
        padding: *const i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_max_pool2d_ex(
        x: ct_tensor,
        kernel: *const i64,
        stride: *const i64,
        padding: *const i64,
        dilation: *const i64,
        ceil_mode: i32,
        out: *mut ct_tensor,
        indices_out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_avg_pool2d_ex(
        x: ct_tensor,
        kernel: *const i64,
        stride: *const i64,
        padding: *const i64,
        ceil_mode: i32,
        count_include_pad: i32,
        divisor_override: i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_adaptive_avg_pool2d(x: ct_tensor, output_size: *const i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_adaptive_max_pool2d(
        x: ct_tensor,
        output_size: *const i64,
        out: *mut ct_tensor,
        indices_out: *mut ct_tensor,
    ) -> ct_status;

    // ---- Autograd ----
    pub fn ct_set_grad_enabled(enabled: i32, previous: *mut i32) -> ct_status;
    pub fn ct_is_grad_enabled() -> i32;
    pub fn ct_tensor_set_requires_grad(t: ct_tensor, requires_grad: i32) -> ct_status;
    pub fn ct_tensor_requires_grad(t: ct_tensor, requires_grad: *mut i32) -> ct_status;
    pub fn ct_tensor_is_leaf(t: ct_tensor, is_leaf: *mut i32) -> ct_status;
    pub fn ct_tensor_grad(t: ct_tensor, grad: *mut ct_tensor) -> ct_status;
    pub fn ct_tensor_set_grad(t: ct_tensor, grad: ct_tensor) -> ct_status;
    pub fn ct_tensor_retain_grad(t: ct_tensor) -> ct_status;
    pub fn ct_tensor_grad_fn_name(t: ct_tensor, buf: *mut c_char, cap: i32, len: *mut i32) -> ct_status;
    pub fn ct_backward(t: ct_tensor, grad_output: ct_tensor, retain_graph: i32, create_graph: i32) -> ct_status;
    pub fn ct_autograd_grad(
        outputs: *const ct_tensor,
        n_outputs: i32,
        grad_outputs: *const ct_tensor,
        inputs: *const ct_tensor,
        n_inputs: i32,
        retain_graph: i32,
        create_graph: i32,
        allow_unused: i32,
        grads_out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_custom_function_apply(
        name: *const c_char,
        inputs: *const ct_tensor,
        n_inputs: i32,
        outputs: *const ct_tensor,
        n_outputs: i32,
        backward: ct_backward_fn,
        ctx: *mut c_void,
        ctx_release: ct_ctx_release_fn,
        results: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_tensor_register_hook(
        t: ct_tensor,
        hook: ct_tensor_hook_fn,
        ctx: *mut c_void,
        destroy_ctx: ct_ctx_release_fn,
        id: *mut i64,
    ) -> ct_status;
    pub fn ct_tensor_remove_hook(t: ct_tensor, id: i64) -> ct_status;

    // ---- Optimizers ----
    pub fn ct_optim_sgd_new(
        params: *const ct_tensor,
        n: i32,
        lr: f64,
        momentum: f64,
        dampening: f64,
        weight_decay: f64,
        nesterov: i32,
        out: *mut ct_optimizer,
    ) -> ct_status;
    pub fn ct_optim_adam_new(
        params: *const ct_tensor,
        n: i32,
        lr: f64,
        beta1: f64,
        beta2: f64,
        eps: f64,
        weight_decay: f64,
        out: *mut ct_optimizer,
    ) -> ct_status;
    pub fn ct_optim_adamw_new(
        params: *const ct_tensor,
        n: i32,
        lr: f64,
        beta1: f64,
        beta2: f64,
        eps: f64,
        weight_decay: f64,
        out: *mut ct_optimizer,
    ) -> ct_status;
    pub fn ct_optimizer_retain(opt: ct_optimizer) -> ct_optimizer;
    pub fn ct_optimizer_release(opt: ct_optimizer);
    pub fn ct_optimizer_step(opt: ct_optimizer) -> ct_status;
    pub fn ct_optimizer_zero_grad(opt: ct_optimizer, set_to_none: i32) -> ct_status;
    pub fn ct_optimizer_set_lr(opt: ct_optimizer, lr: f64) -> ct_status;
    pub fn ct_optimizer_get_lr(opt: ct_optimizer, lr: *mut f64) -> ct_status;
    pub fn ct_optimizer_set_hparam(opt: ct_optimizer, name: *const c_char, value: f64) -> ct_status;
    pub fn ct_optimizer_get_hparam(opt: ct_optimizer, name: *const c_char, value: *mut f64) -> ct_status;
    pub fn ct_optimizer_num_params(opt: ct_optimizer, n: *mut i32) -> ct_status;
    pub fn ct_optimizer_state_names(opt: ct_optimizer, buf: *mut c_char, cap: i32, len: *mut i32) -> ct_status;
    pub fn ct_optimizer_get_state(opt: ct_optimizer, param: i32, name: *const c_char, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_optimizer_set_state(opt: ct_optimizer, param: i32, name: *const c_char, value: ct_tensor) -> ct_status;
    pub fn ct_optimizer_get_step(opt: ct_optimizer, param: i32, step: *mut i64) -> ct_status;
    pub fn ct_optimizer_set_step(opt: ct_optimizer, param: i32, step: i64) -> ct_status;

    // ---- DLPack ----
    pub fn ct_to_dlpack(t: ct_tensor, out: *mut *mut DLManagedTensor) -> ct_status;
    pub fn ct_to_dlpack_versioned(t: ct_tensor, out: *mut *mut DLManagedTensorVersioned) -> ct_status;
    pub fn ct_from_dlpack(managed: *mut DLManagedTensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_from_dlpack_versioned(managed: *mut DLManagedTensorVersioned, out: *mut ct_tensor) -> ct_status;

    // ---- more activations ----
    pub fn ct_elu(x: ct_tensor, alpha: f64, scale: f64, input_scale: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_leaky_relu(x: ct_tensor, negative_slope: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_hardtanh(x: ct_tensor, min_val: f64, max_val: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_hardsigmoid(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_hardswish(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_softshrink(x: ct_tensor, lambd: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_hardshrink(x: ct_tensor, lambd: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_threshold(x: ct_tensor, threshold: f64, value: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_mish(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_log_sigmoid(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_softsign(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_tanhshrink(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_softmin(x: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_glu(x: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_prelu(x: ct_tensor, weight: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_rrelu(x: ct_tensor, lower: f64, upper: f64, training: i32, gen: ct_generator, out: *mut ct_tensor)
        -> ct_status;

    // ---- safetensors ----
    pub fn ct_safetensors_new(out: *mut ct_safetensors) -> ct_status;
    pub fn ct_safetensors_retain(f: ct_safetensors) -> ct_safetensors;
    pub fn ct_safetensors_release(f: ct_safetensors);
    pub fn ct_safetensors_add(f: ct_safetensors, name: *const c_char, t: ct_tensor) -> ct_status;
    pub fn ct_safetensors_set_metadata(f: ct_safetensors, key: *const c_char, value: *const c_char) -> ct_status;
    pub fn ct_safetensors_count(f: ct_safetensors, n: *mut i32) -> ct_status;
    pub fn ct_safetensors_name(f: ct_safetensors, i: i32, buf: *mut c_char, cap: i32, len: *mut i32) -> ct_status;
    pub fn ct_safetensors_get(f: ct_safetensors, name: *const c_char, out: *mut ct_tensor) -> ct_status;
    pub fn ct_safetensors_metadata_count(f: ct_safetensors, n: *mut i32) -> ct_status;
    pub fn ct_safetensors_metadata_key(f: ct_safetensors, i: i32, buf: *mut c_char, cap: i32, len: *mut i32)
        -> ct_status;
    pub fn ct_safetensors_metadata_get(
        f: ct_safetensors,
        key: *const c_char,
        buf: *mut c_char,
        cap: i32,
        len: *mut i32,
    ) -> ct_status;
    pub fn ct_save_safetensors(f: ct_safetensors, path: *const c_char) -> ct_status;
    pub fn ct_load_safetensors(path: *const c_char, device: ct_device, map: i32, out: *mut ct_safetensors) -> ct_status;

    // ---- Distributed (docs/distributed.md) ----
    pub fn ct_process_group_new_mpi(out: *mut ct_process_group) -> ct_status;
    pub fn ct_process_group_new_subgroup(parent: ct_process_group, ranks: *const i32, n: i32, out: *mut ct_process_group)
        -> ct_status;
    pub fn ct_process_group_retain(pg: ct_process_group) -> ct_process_group;
    pub fn ct_process_group_release(pg: ct_process_group);
    pub fn ct_process_group_rank(pg: ct_process_group, rank: *mut i32) -> ct_status;
    pub fn ct_process_group_size(pg: ct_process_group, size: *mut i32) -> ct_status;
    pub fn ct_process_group_set_timeout(pg: ct_process_group, seconds: f64) -> ct_status;
    pub fn ct_all_reduce(pg: ct_process_group, t: ct_tensor, op: ct_reduce_op) -> ct_status;
    pub fn ct_broadcast(pg: ct_process_group, t: ct_tensor, root: i32) -> ct_status;
    pub fn ct_all_gather(pg: ct_process_group, input: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_reduce_scatter(pg: ct_process_group, input: ct_tensor, op: ct_reduce_op, out: *mut ct_tensor) -> ct_status;
    pub fn ct_barrier(pg: ct_process_group) -> ct_status;
    pub fn ct_send(pg: ct_process_group, t: ct_tensor, dst: i32, tag: i32) -> ct_status;
    pub fn ct_recv(pg: ct_process_group, t: ct_tensor, src: i32, tag: i32) -> ct_status;
    pub fn ct_all_reduce_async(pg: ct_process_group, t: ct_tensor, op: ct_reduce_op, out: *mut ct_work) -> ct_status;
    pub fn ct_broadcast_async(pg: ct_process_group, t: ct_tensor, root: i32, out: *mut ct_work) -> ct_status;
    pub fn ct_work_wait(work: ct_work) -> ct_status;
    pub fn ct_work_is_completed(work: ct_work, done: *mut i32) -> ct_status;
    pub fn ct_work_release(work: ct_work);
    pub fn ct_data_parallel_new(
        pg: ct_process_group,
        params: *const ct_tensor,
        n: i32,
        bucket_bytes: i64,
        out: *mut ct_data_parallel,
    ) -> ct_status;
    pub fn ct_data_parallel_set_sync(dp: ct_data_parallel, sync: i32) -> ct_status;
    pub fn ct_data_parallel_finish(dp: ct_data_parallel) -> ct_status;
    pub fn ct_data_parallel_release(dp: ct_data_parallel);
    pub fn ct_data_parallel_prepare(dp: ct_data_parallel, outputs: *const ct_tensor, n: i32) -> ct_status;
    pub fn ct_data_parallel_bucket_count(dp: ct_data_parallel, n: *mut i32) -> ct_status;
    pub fn ct_process_group_set_checks(pg: ct_process_group, enabled: i32) -> ct_status;

    // ---- more losses ----
    pub fn ct_l1_loss(input: ct_tensor, target: ct_tensor, reduction: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_smooth_l1_loss(input: ct_tensor, target: ct_tensor, reduction: i32, beta: f64, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_huber_loss(input: ct_tensor, target: ct_tensor, reduction: i32, delta: f64, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_kl_div(input: ct_tensor, target: ct_tensor, reduction: i32, log_target: i32, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_soft_margin_loss(input: ct_tensor, target: ct_tensor, reduction: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_poisson_nll_loss(input: ct_tensor, target: ct_tensor, reduction: i32, log_input: i32, full: i32, eps: f64,
        out: *mut ct_tensor) -> ct_status;
    pub fn ct_gaussian_nll_loss(input: ct_tensor, target: ct_tensor, var: ct_tensor, reduction: i32, full: i32,
        eps: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_hinge_embedding_loss(input: ct_tensor, target: ct_tensor, reduction: i32, margin: f64,
        out: *mut ct_tensor) -> ct_status;
    pub fn ct_margin_ranking_loss(input1: ct_tensor, input2: ct_tensor, target: ct_tensor, reduction: i32, margin: f64,
        out: *mut ct_tensor) -> ct_status;
    pub fn ct_multilabel_soft_margin_loss(input: ct_tensor, target: ct_tensor, weight: ct_tensor, reduction: i32,
        out: *mut ct_tensor) -> ct_status;
    pub fn ct_multi_margin_loss(input: ct_tensor, target: ct_tensor, reduction: i32, p: i64, margin: f64,
        weight: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_cosine_embedding_loss(input1: ct_tensor, input2: ct_tensor, target: ct_tensor, reduction: i32,
        margin: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_triplet_margin_loss(anchor: ct_tensor, positive: ct_tensor, negative: ct_tensor, reduction: i32,
        margin: f64, p: f64, eps: f64, swap: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_ctc_loss(log_probs: ct_tensor, targets: ct_tensor, input_lengths: *const i64, target_lengths: *const i64,
        n: i64, reduction: i32, blank: i64, zero_infinity: i32, out: *mut ct_tensor) -> ct_status;

    // ---- torch.linalg (LAPACK-backed) ----
    pub fn ct_linalg_inv(a: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_det(a: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_slogdet(a: ct_tensor, sign: *mut ct_tensor, logabsdet: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_solve(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_cholesky(a: ct_tensor, upper: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_qr(a: ct_tensor, mode: ct_qr_mode, q: *mut ct_tensor, r: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_eigh(a: ct_tensor, upper: i32, eigenvalues: *mut ct_tensor, eigenvectors: *mut ct_tensor)
        -> ct_status;
    pub fn ct_linalg_eigvalsh(a: ct_tensor, upper: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_svd(a: ct_tensor, full_matrices: i32, u: *mut ct_tensor, s: *mut ct_tensor, vh: *mut ct_tensor)
        -> ct_status;
    pub fn ct_linalg_svdvals(a: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_solve_triangular(
        a: ct_tensor,
        b: ct_tensor,
        upper: i32,
        left: i32,
        unitriangular: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_linalg_matrix_power(a: ct_tensor, n: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_cross(a: ct_tensor, b: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_vector_norm(
        x: ct_tensor,
        ord: f64,
        dims: *const i64,
        ndims: i32,
        keepdim: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_linalg_matrix_norm(
        x: ct_tensor,
        ord: *const c_char,
        dim0: i64,
        dim1: i64,
        keepdim: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_linalg_pinv(a: ct_tensor, atol: f64, rtol: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_matrix_rank(a: ct_tensor, atol: f64, rtol: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_lstsq(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;

    // ---- attention and transformers (issue 14) ----
    pub fn ct_scaled_dot_product_attention(
        q: ct_tensor,
        k: ct_tensor,
        v: ct_tensor,
        attn_mask: ct_tensor,
        dropout_p: f64,
        is_causal: i32,
        scale: f64,
        gen: ct_generator,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_multi_head_attention_forward(
        query: ct_tensor,
        key: ct_tensor,
        value: ct_tensor,
        num_heads: i64,
        in_proj_weight: ct_tensor,
        in_proj_bias: ct_tensor,
        bias_k: ct_tensor,
        bias_v: ct_tensor,
        add_zero_attn: i32,
        dropout_p: f64,
        out_proj_weight: ct_tensor,
        out_proj_bias: ct_tensor,
        training: i32,
        key_padding_mask: ct_tensor,
        need_weights: i32,
        attn_mask: ct_tensor,
        q_proj_weight: ct_tensor,
        k_proj_weight: ct_tensor,
        v_proj_weight: ct_tensor,
        average_attn_weights: i32,
        is_causal: i32,
        gen: ct_generator,
        out: *mut ct_tensor,
        out_weights: *mut ct_tensor,
    ) -> ct_status;
    // ---- N-d convolution, pooling, unfold/fold (issue 14) ----
    pub fn ct_convolution(
        x: ct_tensor,
        weight: ct_tensor,
        bias: ct_tensor,
        stride: *const i64,
        padding: *const i64,
        dilation: *const i64,
        ndim_spatial: i32,
        transposed: i32,
        output_padding: *const i64,
        groups: i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_max_pool_nd(
        x: ct_tensor,
        ndim_spatial: i32,
        kernel: *const i64,
        stride: *const i64,
        padding: *const i64,
        dilation: *const i64,
        ceil_mode: i32,
        out: *mut ct_tensor,
        indices_out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_avg_pool_nd(
        x: ct_tensor,
        ndim_spatial: i32,
        kernel: *const i64,
        stride: *const i64,
        padding: *const i64,
        ceil_mode: i32,
        count_include_pad: i32,
        divisor_override: i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_adaptive_avg_pool_nd(
        x: ct_tensor,
        ndim_spatial: i32,
        output_size: *const i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_adaptive_max_pool_nd(
        x: ct_tensor,
        ndim_spatial: i32,
        output_size: *const i64,
        out: *mut ct_tensor,
        indices_out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_unfold(
        x: ct_tensor,
        kernel: *const i64,
        dilation: *const i64,
        padding: *const i64,
        stride: *const i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_fold(
        x: ct_tensor,
        output_size: *const i64,
        kernel: *const i64,
        dilation: *const i64,
        padding: *const i64,
        stride: *const i64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_pixel_shuffle(x: ct_tensor, upscale_factor: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_pixel_unshuffle(x: ct_tensor, downscale_factor: i64, out: *mut ct_tensor) -> ct_status;
    // ---- recurrent nets (issue 14) ----
    pub fn ct_rnn(
        mode: i32,
        x: ct_tensor,
        hx: ct_tensor,
        cx: ct_tensor,
        weights: *const ct_tensor,
        num_weights: i32,
        has_biases: i32,
        num_layers: i64,
        dropout: f64,
        train: i32,
        bidirectional: i32,
        batch_first: i32,
        proj_size: i64,
        batch_sizes: *const i64,
        num_batch_sizes: i64,
        gen: ct_generator,
        out: *mut ct_tensor,
        hy: *mut ct_tensor,
        cy: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_rnn_cell(
        mode: i32,
        x: ct_tensor,
        hx: ct_tensor,
        cx: ct_tensor,
        w_ih: ct_tensor,
        w_hh: ct_tensor,
        b_ih: ct_tensor,
        b_hh: ct_tensor,
        hy: *mut ct_tensor,
        cy: *mut ct_tensor,
    ) -> ct_status;
    // ---- Embedding options and EmbeddingBag ----
    pub fn ct_embedding_ex(
        weight: ct_tensor,
        indices: ct_tensor,
        padding_idx: i64,
        has_padding_idx: i32,
        scale_grad_by_freq: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_embedding_renorm_(weight: ct_tensor, indices: ct_tensor, max_norm: f64, norm_type: f64) -> ct_status;
    pub fn ct_embedding_bag(
        weight: ct_tensor,
        indices: ct_tensor,
        offsets: ct_tensor,
        mode: i32,
        per_sample_weights: ct_tensor,
        include_last_offset: i32,
        padding_idx: i64,
        has_padding_idx: i32,
        scale_grad_by_freq: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
}

// ---- recurrent nets (issue 14): modes of ct_rnn / ct_rnn_cell ----
pub const CT_RNN_RELU: i32 = 0;
pub const CT_RNN_TANH: i32 = 1;
pub const CT_RNN_LSTM: i32 = 2;
pub const CT_RNN_GRU: i32 = 3;
// ---- the everyday tensor toolbox (issue 14) ----
extern "C" {
    pub fn ct_scatter_(dst: ct_tensor, dim: i64, index: ct_tensor, src: ct_tensor) -> ct_status;
    pub fn ct_scatter_add_(dst: ct_tensor, dim: i64, index: ct_tensor, src: ct_tensor) -> ct_status;
    pub fn ct_index_add(x: ct_tensor, dim: i64, index: ct_tensor, src: ct_tensor, alpha: f64, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_index_add_(dst: ct_tensor, dim: i64, index: ct_tensor, src: ct_tensor, alpha: f64) -> ct_status;
    pub fn ct_index_copy(x: ct_tensor, dim: i64, index: ct_tensor, src: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_index_copy_(dst: ct_tensor, dim: i64, index: ct_tensor, src: ct_tensor) -> ct_status;
    pub fn ct_index_put(
        x: ct_tensor,
        indices: *const ct_tensor,
        n: i32,
        values: ct_tensor,
        accumulate: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_index_put_(dst: ct_tensor, indices: *const ct_tensor, n: i32, values: ct_tensor, accumulate: i32)
        -> ct_status;
    pub fn ct_searchsorted(
        sorted_sequence: ct_tensor,
        values: ct_tensor,
        right: i32,
        out_int32: i32,
        sorter: ct_tensor,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_bincount(x: ct_tensor, weights: ct_tensor, minlength: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_histc(x: ct_tensor, bins: i64, min: f64, max: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_cummax(x: ct_tensor, dim: i64, values: *mut ct_tensor, indices: *mut ct_tensor) -> ct_status;
    pub fn ct_cummin(x: ct_tensor, dim: i64, values: *mut ct_tensor, indices: *mut ct_tensor) -> ct_status;
    #[allow(clippy::too_many_arguments)]
    pub fn ct_nan_to_num(
        x: ct_tensor,
        nan: f64,
        has_nan: i32,
        posinf: f64,
        has_posinf: i32,
        neginf: f64,
        has_neginf: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_diff(x: ct_tensor, n: i64, dim: i64, prepend: ct_tensor, append: ct_tensor, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_take_along_dim(x: ct_tensor, indices: ct_tensor, dim: i64, has_dim: i32, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_finfo(dtype: ct_dtype, field: i32, value: *mut f64) -> ct_status;
    pub fn ct_iinfo(dtype: ct_dtype, field: i32, value: *mut i64) -> ct_status;
}

// the rest of the toolbox (issue 14): repeat_interleave, meshgrid, median, quantile, cdist
extern "C" {
    #[allow(clippy::too_many_arguments)]
    pub fn ct_repeat_interleave(
        x: ct_tensor,
        repeats: ct_tensor,
        repeats_scalar: i64,
        dim: i64,
        has_dim: i32,
        output_size: i64,
        has_output_size: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_meshgrid(tensors: *const ct_tensor, n: i32, indexing: i32, outs: *mut ct_tensor, cap: i32)
        -> ct_status;
    pub fn ct_median(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_nanmedian(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_median_dim(x: ct_tensor, dim: i64, keepdim: i32, values: *mut ct_tensor, indices: *mut ct_tensor)
        -> ct_status;
    pub fn ct_nanmedian_dim(x: ct_tensor, dim: i64, keepdim: i32, values: *mut ct_tensor, indices: *mut ct_tensor)
        -> ct_status;
    #[allow(clippy::too_many_arguments)]
    pub fn ct_quantile(
        x: ct_tensor,
        q: ct_tensor,
        q_scalar: f64,
        dim: i64,
        has_dim: i32,
        keepdim: i32,
        interpolation: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    #[allow(clippy::too_many_arguments)]
    pub fn ct_nanquantile(
        x: ct_tensor,
        q: ct_tensor,
        q_scalar: f64,
        dim: i64,
        has_dim: i32,
        keepdim: i32,
        interpolation: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_cdist(x1: ct_tensor, x2: ct_tensor, p: f64, compute_mode: i32, out: *mut ct_tensor) -> ct_status;
}

pub const CT_MESHGRID_IJ: i32 = 0;
pub const CT_MESHGRID_XY: i32 = 1;
pub const CT_QUANTILE_LINEAR: i32 = 0;
pub const CT_QUANTILE_LOWER: i32 = 1;
pub const CT_QUANTILE_HIGHER: i32 = 2;
pub const CT_QUANTILE_MIDPOINT: i32 = 3;
pub const CT_QUANTILE_NEAREST: i32 = 4;

pub const CT_FINFO_BITS: i32 = 0;
pub const CT_FINFO_EPS: i32 = 1;
pub const CT_FINFO_MAX: i32 = 2;
pub const CT_FINFO_MIN: i32 = 3;
pub const CT_FINFO_TINY: i32 = 4;
pub const CT_FINFO_RESOLUTION: i32 = 5;
pub const CT_IINFO_BITS: i32 = 0;
pub const CT_IINFO_MIN: i32 = 1;
pub const CT_IINFO_MAX: i32 = 2;

// ---- Resampling: interpolate / Upsample (issue 14) -----------------------------------------------------------

pub const CT_INTERP_NEAREST: i32 = 0;
pub const CT_INTERP_NEAREST_EXACT: i32 = 1;
pub const CT_INTERP_LINEAR: i32 = 2;
pub const CT_INTERP_BICUBIC: i32 = 3;
pub const CT_INTERP_AREA: i32 = 4;

extern "C" {
    #[allow(clippy::too_many_arguments)]
    pub fn ct_interpolate(
        x: ct_tensor,
        size: *const i64,
        scale_factors: *const f64,
        ndim_spatial: i32,
        mode: i32,
        align_corners: i32,
        recompute_scale_factor: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
}

// ---- normalisation layers (issue 14) ----
extern "C" {
    pub fn ct_layer_norm(
        x: ct_tensor,
        normalized_shape: *const i64,
        n: i32,
        weight: ct_tensor,
        bias: ct_tensor,
        eps: f64,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_group_norm(x: ct_tensor, num_groups: i64, weight: ct_tensor, bias: ct_tensor, eps: f64, out: *mut ct_tensor)
        -> ct_status;
    pub fn ct_batch_norm(
        x: ct_tensor,
        running_mean: ct_tensor,
        running_var: ct_tensor,
        weight: ct_tensor,
        bias: ct_tensor,
        training: i32,
        momentum: f64,
        eps: f64,
        out: *mut ct_tensor,
    ) -> ct_status;
}

// ---- least squares with LAPACK's drivers (issue 14) ----
pub const CT_LSTSQ_GELSY: i32 = 0;
pub const CT_LSTSQ_GELS: i32 = 1;
pub const CT_LSTSQ_GELSD: i32 = 2;
pub const CT_LSTSQ_GELSS: i32 = 3;
extern "C" {
    pub fn ct_linalg_lstsq_ex(
        a: ct_tensor,
        b: ct_tensor,
        rcond: f64,
        driver: i32,
        solution: *mut ct_tensor,
        residuals: *mut ct_tensor,
        rank: *mut ct_tensor,
        singular_values: *mut ct_tensor,
    ) -> ct_status;
}

// ---- mixed precision: autocast and gradient scaling (issue 15) ----
pub const CT_AUTOCAST_PASSTHROUGH: i32 = 0;
pub const CT_AUTOCAST_LOWER_PRECISION: i32 = 1;
pub const CT_AUTOCAST_FLOAT32: i32 = 2;
pub const CT_AUTOCAST_PROMOTE: i32 = 3;

extern "C" {
    pub fn ct_autocast_set_enabled(device_type: i32, enabled: i32, previous: *mut i32) -> ct_status;
    pub fn ct_autocast_is_enabled(device_type: i32, enabled: *mut i32) -> ct_status;
    pub fn ct_autocast_set_dtype(device_type: i32, dtype: ct_dtype, previous: *mut ct_dtype) -> ct_status;
    pub fn ct_autocast_get_dtype(device_type: i32, dtype: *mut ct_dtype) -> ct_status;
    pub fn ct_autocast_set_cache_enabled(enabled: i32) -> i32;
    pub fn ct_autocast_is_cache_enabled() -> i32;
    pub fn ct_autocast_increment_nesting() -> i32;
    pub fn ct_autocast_decrement_nesting() -> i32;
    pub fn ct_autocast_clear_cache();
    pub fn ct_autocast_cache_size() -> i64;
    pub fn ct_autocast_policy(op: *const c_char, device_type: i32, policy: *mut i32) -> ct_status;
    pub fn ct_amp_non_finite_check_and_unscale_(
        grads: *const ct_tensor,
        n: i32,
        found_inf: ct_tensor,
        inv_scale: ct_tensor,
    ) -> ct_status;
    pub fn ct_amp_update_scale_(
        scale: ct_tensor,
        growth_tracker: ct_tensor,
        found_inf: ct_tensor,
        growth_factor: f64,
        backoff_factor: f64,
        growth_interval: i64,
    ) -> ct_status;
}

// ---- complex64 / complex128 (issue 15) ----
extern "C" {
    pub fn ct_tensor_item_complex(t: ct_tensor, real: *mut f64, imag: *mut f64) -> ct_status;
    pub fn ct_full_complex(
        shape: *const i64,
        ndim: i32,
        real: f64,
        imag: f64,
        dtype: ct_dtype,
        device: ct_device,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_complex(real: ct_tensor, imag: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_real(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_imag(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_view_as_real(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_view_as_complex(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_conj(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_angle(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_polar(abs: ct_tensor, angle: ct_tensor, out: *mut ct_tensor) -> ct_status;
}

// ---- scatter_reduce (issue 14) ----
pub const CT_SCATTER_SUM: i32 = 0;
pub const CT_SCATTER_PROD: i32 = 1;
pub const CT_SCATTER_MEAN: i32 = 2;
pub const CT_SCATTER_AMAX: i32 = 3;
pub const CT_SCATTER_AMIN: i32 = 4;
extern "C" {
    pub fn ct_scatter_reduce(
        x: ct_tensor,
        dim: i64,
        index: ct_tensor,
        src: ct_tensor,
        reduce: i32,
        include_self: i32,
        out: *mut ct_tensor,
    ) -> ct_status;
    pub fn ct_scatter_reduce_(
        dst: ct_tensor,
        dim: i64,
        index: ct_tensor,
        src: ct_tensor,
        reduce: i32,
        include_self: i32,
    ) -> ct_status;
}

// ---- linalg.eig (issue 14) ----
extern "C" {
    pub fn ct_linalg_eig(a: ct_tensor, eigenvalues: *mut ct_tensor, eigenvectors: *mut ct_tensor) -> ct_status;
    pub fn ct_linalg_eigvals(a: ct_tensor, out: *mut ct_tensor) -> ct_status;
}

// unary math (issue 14)
extern "C" {
    pub fn ct_asin(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_acos(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_atan(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_sinh(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_cosh(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_asinh(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_acosh(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_atanh(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_erf(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_erfc(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_erfinv(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_lgamma(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_digamma(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_sinc(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_sgn(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_deg2rad(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_rad2deg(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_signbit(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_isposinf(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_isneginf(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_positive(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_i0(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_logit(x: ct_tensor, eps: f64, out: *mut ct_tensor) -> ct_status;
}

// ---- binary math (issue 14) ----
extern "C" {
    pub fn ct_logaddexp(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_logaddexp2(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_hypot(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_xlogy(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_copysign(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_fmax(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_fmin(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_heaviside(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_nextafter(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
}
extern "C" {
    pub fn ct_bitwise_and(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_bitwise_or(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_bitwise_xor(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_bitwise_not(x: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_bitwise_left_shift(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_bitwise_right_shift(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_gcd(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_lcm(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
}
extern "C" {
    pub fn ct_addcmul(s: ct_tensor, t1: ct_tensor, t2: ct_tensor, value: f64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_addcdiv(s: ct_tensor, t1: ct_tensor, t2: ct_tensor, value: f64, out: *mut ct_tensor) -> ct_status;
}

// ---- complex scalars (issue 15) ----
extern "C" {
    pub fn ct_wrapped_scalar_complex(real: f64, imag: f64, out: *mut ct_tensor) -> ct_status;
}

// ---- type promotion rules (issue 15) ----
extern "C" {
    pub fn ct_promote_types(a: ct_dtype, b: ct_dtype, dtype: *mut ct_dtype) -> ct_status;
    pub fn ct_can_cast(from: ct_dtype, to: ct_dtype, castable: *mut i32) -> ct_status;
    pub fn ct_result_type(a: ct_tensor, b: ct_tensor, dtype: *mut ct_dtype) -> ct_status;
}

// ---- more reductions and products (issue 14) ----
extern "C" {
    pub fn ct_logcumsumexp(x: ct_tensor, dim: i64, out: *mut ct_tensor) -> ct_status;
    pub fn ct_aminmax(x: ct_tensor, dim: i64, has_dim: i32, keepdim: i32, min: *mut ct_tensor, max: *mut ct_tensor) -> ct_status;
    pub fn ct_var_mean(x: ct_tensor, dims: *const i64, ndims: i32, correction: f64, keepdim: i32, var: *mut ct_tensor, mean: *mut ct_tensor) -> ct_status;
    pub fn ct_std_mean(x: ct_tensor, dims: *const i64, ndims: i32, correction: f64, keepdim: i32, std: *mut ct_tensor, mean: *mut ct_tensor) -> ct_status;
    pub fn ct_kron(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
    pub fn ct_tensordot(a: ct_tensor, b: ct_tensor, dims_a: *const i64, ndims_a: i32, dims_b: *const i64, ndims_b: i32, out: *mut ct_tensor) -> ct_status;
    pub fn ct_inner(a: ct_tensor, b: ct_tensor, out: *mut ct_tensor) -> ct_status;
}

// ---- bool wrapped scalar (issue 15) ----
extern "C" {
    pub fn ct_wrapped_scalar_bool(value: i32, out: *mut ct_tensor) -> ct_status;
}
