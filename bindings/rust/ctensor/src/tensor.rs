//! `Tensor`: an owned reference to a library tensor (Drop releases, Clone retains), its metadata,
//! creation from Rust data and copying back, and the PyTorch-like text form.
use std::ffi::c_void;
use std::fmt;
use std::os::raw::c_char;

use ctensor_sys as sys;

use crate::error::{check, ensure_abi, Result};
use crate::types::{DType, Device, Element, Options};

/// A tensor: sizes, strides, dtype, device, storage and autograd metadata, owned through one library
/// handle reference.
///
/// `Clone` is cheap and shares everything (it retains the same handle, like `Arc::clone`); use
/// [`Tensor::copy`] for a new tensor with its own storage. Views ([`Tensor::reshape`], [`Tensor::narrow`],
/// ...) share storage with their base.
///
/// ```
/// use ctensor::{DType, Tensor};
/// let x = Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
/// let y = (&x * &x)?;                       // operators return Result<Tensor>
/// assert_eq!(y.to_vec::<f32>()?, vec![1.0, 4.0, 9.0, 16.0]);
/// assert_eq!(y.size(), vec![2, 2]);
/// assert_eq!(y.dtype(), DType::Float32);
/// # Ok::<(), ctensor::Error>(())
/// ```
///
/// # Threads
/// `Tensor` is `Send + Sync`. The handle table is lock-free with generation-checked slots, refcounts are
/// atomic, errors and grad mode are per thread, and ops only read their inputs, so any number of threads
/// may run ops on shared tensors. Writes (in-place ops, `set_requires_grad`, `set_grad`, `retain_grad`) take
/// `&mut self`, so a `&Tensor` shared between threads is read-only. One rule of the C library remains
/// the caller's, as in PyTorch: data must not be written through one handle (a clone or a view) while
/// another thread uses the same storage, and two threads must not run `backward` into the same leaf at
/// once (gradient accumulation into `.grad` is not locked).
pub struct Tensor {
    raw: sys::ct_tensor,
}

// SAFETY: see "Threads" above: handles are thread-safe, reads are concurrent-safe, and every write
// through this type needs `&mut self`.
unsafe impl Send for Tensor {}
unsafe impl Sync for Tensor {}

impl Drop for Tensor {
    fn drop(&mut self) {
        unsafe { sys::ct_tensor_release(self.raw) }
    }
}

impl Clone for Tensor {
    /// A new reference to the same tensor (shares storage and autograd identity).
    fn clone(&self) -> Tensor {
        Tensor { raw: unsafe { sys::ct_tensor_retain(self.raw) } }
    }
}

/// Runs a C call that returns one new handle through its out-parameter.
pub(crate) fn out1(call: impl FnOnce(*mut sys::ct_tensor) -> sys::ct_status) -> Result<Tensor> {
    ensure_abi()?;
    let mut out: sys::ct_tensor = std::ptr::null_mut();
    check(call(&mut out))?;
    Ok(Tensor { raw: out })
}

/// Raw handles of a list of tensors (borrowed for the duration of a call).
pub(crate) fn raws(ts: &[&Tensor]) -> Vec<sys::ct_tensor> {
    ts.iter().map(|t| t.raw).collect()
}

/// Handle of an optional tensor (NULL for None).
pub(crate) fn opt_raw(t: Option<&Tensor>) -> sys::ct_tensor {
    t.map_or(std::ptr::null_mut(), |t| t.raw)
}

fn ndim_i32(shape: &[i64]) -> i32 {
    i32::try_from(shape.len()).expect("rank fits in i32")
}

impl Tensor {
    // ---- raw handles ----

    /// The handle, still owned by `self` (for calling `ctensor_sys` directly).
    pub fn as_raw(&self) -> sys::ct_tensor {
        self.raw
    }

    /// Gives up ownership of the handle reference; the caller must release it.
    pub fn into_raw(self) -> sys::ct_tensor {
        let raw = self.raw;
        std::mem::forget(self);
        raw
    }

    /// Takes ownership of one reference to a handle.
    ///
    /// # Safety
    /// `raw` must be a live tensor handle whose reference the caller owns and hands over (e.g. one
    /// returned through a `ctensor_sys` out-parameter); it is released when the `Tensor` drops.
    pub unsafe fn from_raw(raw: sys::ct_tensor) -> Tensor {
        Tensor { raw }
    }

    // ---- metadata (these cannot fail on a live handle; a failure is a library bug and panics) ----

    fn meta<T: Default>(&self, f: impl FnOnce(sys::ct_tensor, *mut T) -> sys::ct_status) -> T {
        let mut v = T::default();
        check(f(self.raw, &mut v)).unwrap_or_else(|e| panic!("ctensor metadata query failed: {e}"));
        v
    }

    fn int_list(&self, f: unsafe extern "C" fn(sys::ct_tensor, *mut i64, i32, *mut i32) -> sys::ct_status) -> Vec<i64> {
        let mut buf = vec![0i64; 8];
        loop {
            let mut n = 0i32;
            check(unsafe { f(self.raw, buf.as_mut_ptr(), buf.len() as i32, &mut n) })
                .unwrap_or_else(|e| panic!("ctensor metadata query failed: {e}"));
            if (n as usize) <= buf.len() {
                buf.truncate(n as usize);
                return buf;
            }
            buf.resize(n as usize, 0);
        }
    }

    /// Sizes of each dim (PyTorch's `size()`).
    pub fn size(&self) -> Vec<i64> {
        self.int_list(sys::ct_tensor_shape)
    }

    /// Same as [`Tensor::size`].
    pub fn shape(&self) -> Vec<i64> {
        self.size()
    }

    /// Strides in elements.
    pub fn strides(&self) -> Vec<i64> {
        self.int_list(sys::ct_tensor_strides)
    }

    /// Rank.
    pub fn dim(&self) -> usize {
        self.meta(|t, v: *mut i32| unsafe { sys::ct_tensor_ndim(t, v) }) as usize
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.meta(|t, v: *mut i64| unsafe { sys::ct_tensor_numel(t, v) }) as usize
    }

    /// Offset of the first element in the storage, in elements.
    pub fn storage_offset(&self) -> i64 {
        self.meta(|t, v| unsafe { sys::ct_tensor_offset(t, v) })
    }

    /// Element dtype.
    pub fn dtype(&self) -> DType {
        let raw = self.meta(|t, v| unsafe { sys::ct_tensor_dtype(t, v) });
        DType::from_raw(raw).expect("library returned a known dtype")
    }

    /// Device the tensor lives on.
    pub fn device(&self) -> Device {
        let mut d = sys::ct_device { type_: 0, index: 0 };
        check(unsafe { sys::ct_tensor_device(self.raw, &mut d) }).expect("device of a live tensor");
        Device::from_raw(d).expect("library returned a known device")
    }

    /// True when elements are row-major without gaps.
    pub fn is_contiguous(&self) -> bool {
        self.meta(|t, v: *mut i32| unsafe { sys::ct_tensor_is_contiguous(t, v) }) != 0
    }

    /// Version counter shared with views; bumped by every in-place write.
    pub fn version(&self) -> i64 {
        self.meta(|t, v| unsafe { sys::ct_tensor_version(t, v) })
    }

    /// True when `self` and `other` share storage (views of each other or of one base).
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        self.meta(|t, v: *mut i32| unsafe { sys::ct_tensor_shares_storage(t, other.raw, v) }) != 0
    }

    /// Address of the first element; valid while this tensor (or another reference to it) is alive.
    /// Reading or writing through it is `unsafe` and must respect [`Tensor::strides`] and the dtype.
    pub fn data_ptr(&self) -> *mut c_void {
        self.meta(|t, v| unsafe { sys::ct_tensor_data_ptr(t, v) })
    }

    // ---- creation ----

    fn shaped(
        shape: &[i64],
        options: Options,
        f: unsafe extern "C" fn(*const i64, i32, sys::ct_dtype, sys::ct_device, *mut sys::ct_tensor) -> sys::ct_status,
    ) -> Result<Tensor> {
        let (d, dev) = (options.dtype.to_raw(), options.device.to_raw());
        out1(|o| unsafe { f(shape.as_ptr(), ndim_i32(shape), d, dev, o) })
    }

    /// Uninitialised tensor.
    pub fn empty(shape: &[i64], options: impl Into<Options>) -> Result<Tensor> {
        Tensor::shaped(shape, options.into(), sys::ct_empty)
    }

    /// Tensor of zeros: `Tensor::zeros(&[2, 3], DType::Float32)` or with `(DType::Float32, Device::Cpu)`.
    pub fn zeros(shape: &[i64], options: impl Into<Options>) -> Result<Tensor> {
        Tensor::shaped(shape, options.into(), sys::ct_zeros)
    }

    /// Tensor of ones.
    pub fn ones(shape: &[i64], options: impl Into<Options>) -> Result<Tensor> {
        Tensor::shaped(shape, options.into(), sys::ct_ones)
    }

    /// Tensor filled with `value` (converted to the dtype).
    pub fn full(shape: &[i64], value: f64, options: impl Into<Options>) -> Result<Tensor> {
        let o = options.into();
        let (d, dev) = (o.dtype.to_raw(), o.device.to_raw());
        out1(|out| unsafe { sys::ct_full(shape.as_ptr(), ndim_i32(shape), value, d, dev, out) })
    }

    /// 0-d tensor holding `value`.
    pub fn scalar(value: f64, options: impl Into<Options>) -> Result<Tensor> {
        let o = options.into();
        out1(|out| unsafe { sys::ct_scalar_tensor(value, o.dtype.to_raw(), o.device.to_raw(), out) })
    }

    /// 0-d "wrapped number" that takes part in ops like a Python scalar (never upcasts a tensor).
    pub fn wrapped_scalar(value: f64, is_integer: bool) -> Result<Tensor> {
        out1(|out| unsafe { sys::ct_wrapped_scalar(value, is_integer as i32, out) })
    }

    /// `start, start + step, ...` below `end` (above `end` for a negative step).
    pub fn arange(start: f64, end: f64, step: f64, options: impl Into<Options>) -> Result<Tensor> {
        let o = options.into();
        out1(|out| unsafe { sys::ct_arange(start, end, step, o.dtype.to_raw(), o.device.to_raw(), out) })
    }

    /// `steps` values evenly spaced from `start` to `end` inclusive.
    pub fn linspace(start: f64, end: f64, steps: i64, options: impl Into<Options>) -> Result<Tensor> {
        let o = options.into();
        out1(|out| unsafe { sys::ct_linspace(start, end, steps, o.dtype.to_raw(), o.device.to_raw(), out) })
    }

    /// `n x m` matrix with ones on the diagonal.
    pub fn eye(n: i64, m: i64, options: impl Into<Options>) -> Result<Tensor> {
        let o = options.into();
        out1(|out| unsafe { sys::ct_eye(n, m, o.dtype.to_raw(), o.device.to_raw(), out) })
    }

    /// Uninitialised tensor with this tensor's shape, dtype and device.
    pub fn empty_like(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_empty_like(self.raw, o) })
    }

    /// Zeros with this tensor's shape, dtype and device.
    pub fn zeros_like(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_zeros_like(self.raw, o) })
    }

    /// Ones with this tensor's shape, dtype and device.
    pub fn ones_like(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_ones_like(self.raw, o) })
    }

    /// `value` with this tensor's shape, dtype and device.
    pub fn full_like(&self, value: f64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_full_like(self.raw, value, o) })
    }

    /// A CPU tensor holding a copy of `data` (row-major) with the given shape.
    ///
    /// ```
    /// let t = ctensor::Tensor::from_slice(&[1i64, 2, 3, 4, 5, 6], &[2, 3])?;
    /// assert_eq!(t.size(), vec![2, 3]);
    /// assert_eq!(t.to_vec::<i64>()?, vec![1, 2, 3, 4, 5, 6]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn from_slice<T: Element>(data: &[T], shape: &[i64]) -> Result<Tensor> {
        let nbytes = std::mem::size_of_val(data) as i64;
        let (d, dev) = (T::DTYPE.to_raw(), Device::Cpu.to_raw());
        out1(|o| unsafe {
            sys::ct_tensor_from_data(data.as_ptr().cast(), nbytes, shape.as_ptr(), ndim_i32(shape), d, dev, o)
        })
    }

    /// A 1-D CPU tensor holding a copy of `data`.
    pub fn from_slice1<T: Element>(data: &[T]) -> Result<Tensor> {
        Tensor::from_slice(data, &[data.len() as i64])
    }

    /// A CPU tensor that takes ownership of `data` without copying (the Vec is freed when the last
    /// reference to the storage goes, possibly on another thread).
    pub fn from_vec<T: Element + Send>(data: Vec<T>, shape: &[i64]) -> Result<Tensor> {
        unsafe extern "C" fn free_vec<T>(_data: *mut c_void, ctx: *mut c_void) {
            drop(unsafe { Box::from_raw(ctx as *mut Vec<T>) });
        }
        ensure_abi()?;
        // The library cannot see the buffer's length: check it here, before the tensor exists.
        if shape.iter().all(|&s| s >= 0) {
            let numel = shape.iter().try_fold(1i64, |acc, &s| acc.checked_mul(s));
            if numel != Some(data.len() as i64) {
                return Err(crate::Error::Shape(format!(
                    "from_vec: shape {shape:?} does not hold the Vec's {} elements",
                    data.len()
                )));
            }
        }
        let mut boxed = Box::new(data);
        let ptr = boxed.as_mut_ptr() as *mut c_void;
        let ctx = Box::into_raw(boxed);
        let (d, dev) = (T::DTYPE.to_raw(), Device::Cpu.to_raw());
        let mut out = std::ptr::null_mut();
        let status = unsafe {
            sys::ct_tensor_from_blob(
                ptr,
                shape.as_ptr(),
                std::ptr::null(),
                ndim_i32(shape),
                d,
                dev,
                Some(free_vec::<T>),
                ctx.cast(),
                &mut out,
            )
        };
        if let Err(e) = check(status) {
            drop(unsafe { Box::from_raw(ctx) }); // on failure the deleter is not called
            return Err(e);
        }
        Ok(Tensor { raw: out })
    }

    /// The elements in row-major order as a Vec of `T`, converting the dtype first when it differs
    /// (e.g. `to_vec::<f64>()` of a float32 tensor). Works for any strides; CPU tensors only.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        let src = if self.dtype() == T::DTYPE { self.clone() } else { self.to_dtype(T::DTYPE)? };
        let n = src.numel();
        let mut buf = vec![T::Stored::default(); n];
        let nbytes = std::mem::size_of_val(buf.as_slice()) as i64;
        check(unsafe { sys::ct_tensor_copy_to_host(src.raw, buf.as_mut_ptr().cast(), nbytes) })?;
        Ok(buf.into_iter().map(T::from_stored).collect())
    }

    /// Value of a one-element tensor as f64.
    pub fn item(&self) -> Result<f64> {
        let mut v = 0.0;
        check(unsafe { sys::ct_tensor_item(self.raw, &mut v) })?;
        Ok(v)
    }

    /// Value of a one-element tensor as i64 (exact for integer dtypes).
    pub fn item_i64(&self) -> Result<i64> {
        let mut v = 0;
        check(unsafe { sys::ct_tensor_item_int64(self.raw, &mut v) })?;
        Ok(v)
    }

    /// The PyTorch-like text form, e.g. `tensor([[1., 2.]], requires_grad=True)`.
    pub fn to_text(&self) -> Result<String> {
        let mut buf = vec![0u8; 256];
        loop {
            let mut len = 0i64;
            let cap = buf.len() as i64;
            check(unsafe { sys::ct_tensor_to_string(self.raw, buf.as_mut_ptr() as *mut c_char, cap, &mut len) })?;
            if len < cap {
                buf.truncate(len as usize);
                return Ok(String::from_utf8_lossy(&buf).into_owned());
            }
            buf.resize(len as usize + 1, 0);
        }
    }
}

impl fmt::Display for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_text() {
            Ok(s) => f.write_str(&s),
            Err(e) => write!(f, "<tensor: {e}>"),
        }
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
