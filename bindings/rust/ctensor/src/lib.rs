//! Safe Rust API for ctensor: eager tensors with PyTorch-style reverse-mode autograd, over the stable C
//! ABI `include/ctensor.h` (raw declarations in the `ctensor-sys` crate).
//!
//! ```
//! use ctensor::{DType, Tensor};
//! let x = Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?.requires_grad_(true)?;
//! let loss = (&x * &x)?.sum_all()?;        // recorded for autograd
//! loss.backward()?;                        // x.grad = 2 * x
//! assert_eq!(loss.item()?, 91.0);
//! assert_eq!(x.grad().unwrap().to_vec::<f32>()?, vec![2.0, 4.0, 6.0, 8.0, 10.0, 12.0]);
//!
//! let err = x.matmul(&x).unwrap_err();     // [2, 3] @ [2, 3]: an error, never a crash
//! assert!(matches!(err, ctensor::Error::Shape(_)));
//! # Ok::<(), ctensor::Error>(())
//! ```
//!
//! # Conventions
//! - **Errors.** Every op returns [`Result<Tensor>`](Result). [`Error`] has one variant per `ct_status`,
//!   each carrying the library's message (which names the op and the shapes/dtypes involved).
//! - **Operators never panic.** `+ - * /` and unary `-` have `type Output = Result<Tensor>`; they work on
//!   owned and borrowed tensors, with `f64` scalars on either side, and with a `Result<Tensor>` on the left
//!   of a tensor operand, so `(&a * &b + &c)?` needs one `?` (Rust's orphan rule forbids `Result<Tensor>`
//!   with an `f64`: write `((&a * &b)? * 2.0)?`). Scalars are "wrapped numbers": `float32 * 2.0` stays float32.
//! - **Ownership.** A [`Tensor`] owns one reference to a library handle: `Drop` releases it, `Clone`
//!   retains it (cheap, shares storage and autograd identity). [`Tensor::copy`] is PyTorch's `clone()`.
//! - **Dims** may be negative (from the end). Reductions take `dims: &[i64]`, where an empty slice
//!   means every dim (`sum_all()` / `mean_all()` are shorthands), plus `keepdim`.
//! - **Threads.** `Tensor` is `Send + Sync` (see its docs for the one rule that stays the caller's);
//!   grad mode ([`no_grad`]) and errors are per thread.
//! - **Linking.** `ctensor-sys`'s build script finds libctensor (`CTENSOR_LIB_DIR`, `pkg-config`, or the
//!   repository's `build/` tree) and sets an rpath for this workspace's tests and examples; a crate
//!   outside the workspace that depends on these crates can read `DEP_CTENSOR_LIB_DIR` in its own
//!   build script for the same purpose.
//!
//! The ABI version is checked once, at the first tensor made ([`Error::Version`] if the loaded library
//! does not serve this crate).
#![allow(clippy::should_implement_trait)] // PyTorch names: add, sub, mul, div, neg, eq ... as methods

mod activations;
mod amp;
mod attention;
mod autograd;
mod binary_math;
mod bitwise;
mod bool_scalar;
mod class_losses;
mod complex;
mod complex_scalar;
mod conv;
mod data_parallel;
pub mod distributed;
mod dlpack;
mod embedding;
mod resample;
mod error;
mod hooks;
mod losses;
mod more_ops;
mod module_hooks;
mod linalg;
pub mod nn;
mod norms;
mod operators;
mod ops;
pub mod optim;
mod optim_state;
mod pool_nd;
mod pooling;
mod random;
pub mod rnn;
pub mod safetensors;
mod sorting;
mod tensor;
mod promotion;
mod toolbox;
mod toolbox_stats;
mod types;
mod unary_math;
mod views;

pub use amp::{
    autocast, autocast_cache_size, autocast_dtype, autocast_policy, is_autocast_enabled, set_autocast, AutocastGuard,
    GradScaler,
};
pub use attention::{
    multi_head_attention_forward, FeedForwardActivation, LayerNorm, MhaOptions, MultiheadAttention, TransformerEncoder,
    TransformerEncoderLayer,
};
pub use complex_scalar::Complex;
pub use autograd::{custom_function, grad, is_grad_enabled, no_grad, set_grad_enabled, BackwardFn, GradModeGuard};
pub use ctensor_sys as sys;
pub use dlpack::{DLManagedTensor, DLManagedTensorVersioned};
pub use embedding::{EmbeddingBagMode, EmbeddingBagOptions};
pub use resample::{InterpolateMode, Resize};
pub use norms::{BatchNorm, GroupNorm};
pub use error::{check, ensure_abi, Error, Result};
pub use hooks::HookId;
pub use linalg::{Lstsq, LstsqDriver, QrMode, Uplo};
pub use random::{manual_seed, Generator};
pub use sorting::Unique;
pub use tensor::Tensor;
pub use toolbox::{finfo, iinfo, FInfo, IInfo, ScatterReduce};
pub use toolbox_stats::{meshgrid, Interpolation, Repeats};
pub use types::{DType, Device, Element, Options, Reduction};

/// Runtime library version as `major*10000 + minor*100 + patch`.
pub fn version() -> i32 {
    unsafe { sys::ct_version() }
}

/// ABI major version of the loaded library.
pub fn abi_version() -> i32 {
    unsafe { sys::ct_abi_version() }
}

/// Runtime library version as "major.minor.patch".
pub fn version_string() -> String {
    let v = version();
    format!("{}.{}.{}", v / 10000, v / 100 % 100, v % 100)
}

/// Number of live library handles of every kind (tensors, generators, optimizers); for leak tests.
pub fn live_handles() -> i64 {
    unsafe { sys::ct_live_handles() }
}

/// Sets the thread budget shared by ctensor's parallel loops and BLAS (n >= 1).
pub fn set_num_threads(n: i32) -> Result<()> {
    check(unsafe { sys::ct_set_num_threads(n) })
}

/// The current thread budget.
pub fn get_num_threads() -> i32 {
    unsafe { sys::ct_get_num_threads() }
}

/// Number of usable CUDA devices (0 when the backend, driver or GPU is missing).
pub fn cuda_device_count() -> i32 {
    unsafe { sys::ct_cuda_device_count() }
}

/// `Ok(())` when CUDA is usable, else `Err(reason)`.
pub fn cuda_is_available() -> std::result::Result<(), String> {
    let mut buf = vec![0u8; 512];
    let ok = unsafe { sys::ct_cuda_is_available(buf.as_mut_ptr().cast(), buf.len() as i32) };
    if ok != 0 {
        return Ok(());
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Err(String::from_utf8_lossy(&buf[..end]).into_owned())
}

/// Waits until all queued work on CUDA device `device` has finished.
pub fn cuda_synchronize(device: i32) -> Result<()> {
    check(unsafe { sys::ct_cuda_synchronize(device) })
}

/// Caching-allocator statistics of a CUDA device, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CudaMemoryStats {
    /// Bytes in live allocations.
    pub allocated: i64,
    /// Bytes held by the caching allocator (live and cached).
    pub reserved: i64,
    /// Highest `allocated` so far.
    pub peak: i64,
}

/// Allocator statistics of CUDA device `device`.
pub fn cuda_memory_stats(device: i32) -> Result<CudaMemoryStats> {
    let mut m = CudaMemoryStats::default();
    check(unsafe { sys::ct_cuda_memory_stats(device, &mut m.allocated, &mut m.reserved, &mut m.peak) })?;
    Ok(m)
}

/// Returns the cached, unused blocks of every CUDA device to the driver.
pub fn cuda_empty_cache() -> Result<()> {
    check(unsafe { sys::ct_cuda_empty_cache() })
}

/// CPU memory statistics in bytes, from `cpu_memory_stats`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuMemoryStats {
    /// Bytes held by live tensors.
    pub allocated: i64,
    /// Bytes of freed blocks kept for reuse.
    pub cached: i64,
    /// The memory limit (`None`: no limit).
    pub limit: Option<i64>,
}

/// Caps the CPU memory held by tensors (`None` removes the cap); allocations beyond it fail with
/// `Error::OutOfMemory` and leave their inputs as they were.
pub fn set_cpu_memory_limit(bytes: Option<i64>) -> Result<()> {
    check(unsafe { sys::ct_set_cpu_memory_limit(bytes.unwrap_or(-1)) })
}

/// CPU memory held by tensors, kept in caches, and the limit.
pub fn cpu_memory_stats() -> Result<CpuMemoryStats> {
    let (mut allocated, mut cached, mut limit) = (0i64, 0i64, -1i64);
    check(unsafe { sys::ct_cpu_memory_stats(&mut allocated, &mut cached, &mut limit) })?;
    Ok(CpuMemoryStats { allocated, cached, limit: if limit < 0 { None } else { Some(limit) } })
}
