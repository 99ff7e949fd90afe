//! Autograd: requires_grad, .grad, backward, `grad()` (autograd.grad), grad-mode guards, and custom
//! functions whose backward is a Rust closure called through an `extern "C"` trampoline.
use std::ffi::{c_void, CString};
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use ctensor_sys as sys;

use crate::error::{check, ensure_abi, Error, Result};
use crate::tensor::{opt_raw, raws, Tensor};

impl Tensor {
    /// Marks a leaf as requiring grad (floating dtypes only) or clears it.
    pub fn set_requires_grad(&mut self, requires_grad: bool) -> Result<()> {
        check(unsafe { sys::ct_tensor_set_requires_grad(self.as_raw(), requires_grad as i32) })
    }

    /// Builder form of [`Tensor::set_requires_grad`]: `Tensor::randn(..)?.requires_grad_(true)?`.
    pub fn requires_grad_(mut self, requires_grad: bool) -> Result<Tensor> {
        self.set_requires_grad(requires_grad)?;
        Ok(self)
    }

    /// True if this tensor requires grad.
    pub fn requires_grad(&self) -> bool {
        let mut v = 0;
        check(unsafe { sys::ct_tensor_requires_grad(self.as_raw(), &mut v) }).expect("requires_grad of a live tensor");
        v != 0
    }

    /// True for a leaf (made by the user, not by a recorded op).
    pub fn is_leaf(&self) -> bool {
        let mut v = 0;
        check(unsafe { sys::ct_tensor_is_leaf(self.as_raw(), &mut v) }).expect("is_leaf of a live tensor");
        v != 0
    }

    /// The accumulated gradient, if any.
    pub fn grad(&self) -> Option<Tensor> {
        let mut g = std::ptr::null_mut();
        check(unsafe { sys::ct_tensor_grad(self.as_raw(), &mut g) }).expect("grad of a live tensor");
        (!g.is_null()).then(|| unsafe { Tensor::from_raw(g) })
    }

    /// Replaces the gradient (`None` clears it); shape, dtype and device must match.
    pub fn set_grad(&mut self, grad: Option<&Tensor>) -> Result<()> {
        check(unsafe { sys::ct_tensor_set_grad(self.as_raw(), opt_raw(grad)) })
    }

    /// Makes a non-leaf keep its gradient in backward.
    pub fn retain_grad(&mut self) -> Result<()> {
        check(unsafe { sys::ct_tensor_retain_grad(self.as_raw()) })
    }

    /// Name of the node that made this tensor (`"MulBackward"`, ...); `""` for leaves.
    pub fn grad_fn_name(&self) -> String {
        let mut buf = vec![0u8; 64];
        loop {
            let mut len = 0i32;
            let cap = buf.len() as i32;
            check(unsafe { sys::ct_tensor_grad_fn_name(self.as_raw(), buf.as_mut_ptr().cast(), cap, &mut len) })
                .expect("grad_fn_name of a live tensor");
            if len < cap {
                buf.truncate(len as usize);
                return String::from_utf8_lossy(&buf).into_owned();
            }
            buf.resize(len as usize + 1, 0);
        }
    }

    /// Backpropagates from this one-element tensor (gradient 1), freeing the graph.
    pub fn backward(&self) -> Result<()> {
        self.backward_with(None, false, false)
    }

    /// Backpropagates with an explicit `grad_output` (None means ones; the tensor must then have one
    /// element), optionally keeping the graph and recording the backward pass for higher derivatives.
    pub fn backward_with(&self, grad_output: Option<&Tensor>, retain_graph: bool, create_graph: bool) -> Result<()> {
        check(unsafe {
            sys::ct_backward(self.as_raw(), opt_raw(grad_output), retain_graph as i32, create_graph as i32)
        })
    }
}

/// Gradients of `outputs` with respect to `inputs` (like `torch.autograd.grad`), not accumulated into
/// `.grad`. `grad_outputs` gives one optional gradient per output (None = ones for one-element outputs).
/// An entry is `None` when the input is unused and `allow_unused` is set.
pub fn grad(
    outputs: &[&Tensor],
    grad_outputs: Option<&[Option<&Tensor>]>,
    inputs: &[&Tensor],
    retain_graph: bool,
    create_graph: bool,
    allow_unused: bool,
) -> Result<Vec<Option<Tensor>>> {
    let outs = raws(outputs);
    let ins = raws(inputs);
    let gouts: Option<Vec<sys::ct_tensor>> = grad_outputs.map(|g| g.iter().map(|t| opt_raw(*t)).collect());
    if let Some(g) = &gouts {
        if g.len() != outs.len() {
            return Err(Error::InvalidArgument(format!(
                "autograd_grad: {} grad_outputs for {} outputs",
                g.len(),
                outs.len()
            )));
        }
    }
    let mut res = vec![std::ptr::null_mut(); ins.len()];
    check(unsafe {
        sys::ct_autograd_grad(
            outs.as_ptr(),
            outs.len() as i32,
            gouts.as_ref().map_or(std::ptr::null(), |g| g.as_ptr()),
            ins.as_ptr(),
            ins.len() as i32,
            retain_graph as i32,
            create_graph as i32,
            allow_unused as i32,
            res.as_mut_ptr(),
        )
    })?;
    Ok(res.into_iter().map(|h| (!h.is_null()).then(|| unsafe { Tensor::from_raw(h) })).collect())
}

/// True when this thread records autograd graphs.
pub fn is_grad_enabled() -> bool {
    unsafe { sys::ct_is_grad_enabled() != 0 }
}

/// Restores this thread's previous grad mode when dropped. Not `Send`: grad mode is per thread.
#[must_use = "grad mode is restored when the guard is dropped"]
pub struct GradModeGuard {
    previous: bool,
    _not_send: PhantomData<*const ()>,
}

impl Drop for GradModeGuard {
    fn drop(&mut self) {
        unsafe { sys::ct_set_grad_enabled(self.previous as i32, std::ptr::null_mut()) };
    }
}

/// Sets this thread's grad mode until the returned guard drops.
pub fn set_grad_enabled(enabled: bool) -> GradModeGuard {
    let mut previous = 0;
    unsafe { sys::ct_set_grad_enabled(enabled as i32, &mut previous) };
    GradModeGuard { previous: previous != 0, _not_send: PhantomData }
}

/// Turns graph recording off on this thread until the guard drops (like `with torch.no_grad():`).
///
/// ```
/// use ctensor::{no_grad, DType, Tensor};
/// let w = Tensor::ones(&[3], DType::Float32)?.requires_grad_(true)?;
/// {
///     let _guard = no_grad();
///     let y = (&w * 2.0)?;
///     assert!(!y.requires_grad());
/// }
/// assert!((&w * 2.0)?.requires_grad());
/// # Ok::<(), ctensor::Error>(())
/// ```
pub fn no_grad() -> GradModeGuard {
    set_grad_enabled(false)
}

/// The backward closure of a custom function: gradients of the outputs in, one optional gradient per
/// input out (None = no gradient for that input).
pub type BackwardFn = Box<dyn FnMut(&[Tensor]) -> Result<Vec<Option<Tensor>>> + Send>;

/// The ctx behind a custom function's node. The Mutex makes the closure callable from whichever
/// thread runs backward, and the node may be freed on any thread (hence `Send`).
struct CustomCtx {
    name: String,
    backward: Mutex<BackwardFn>,
}

pub(crate) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".into())
}

/// Runs the closure on borrowed gradient handles; fills `grad_inputs` with new references.
fn run_backward(ctx: &CustomCtx, grads: &[sys::ct_tensor], grad_inputs: &mut [sys::ct_tensor]) -> Result<()> {
    // The library keeps its references for the duration of the call; ours are released on return.
    let grads: Vec<Tensor> = grads.iter().map(|&h| unsafe { Tensor::from_raw(sys::ct_tensor_retain(h)) }).collect();
    let mut f = ctx.backward.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let result = f(&grads)?;
    if result.len() != grad_inputs.len() {
        return Err(Error::Callback(format!(
            "{}: backward returned {} gradients for {} inputs",
            ctx.name,
            result.len(),
            grad_inputs.len()
        )));
    }
    for (slot, g) in grad_inputs.iter_mut().zip(result) {
        *slot = g.map_or(std::ptr::null_mut(), Tensor::into_raw);
    }
    Ok(())
}

unsafe extern "C" fn backward_trampoline(
    ctx: *mut c_void,
    grad_outputs: *const sys::ct_tensor,
    n_outputs: i32,
    grad_inputs: *mut sys::ct_tensor,
    n_inputs: i32,
) -> sys::ct_status {
    // No panic may unwind into C: catch it and report it as a callback error.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let ctx = unsafe { &*(ctx as *const CustomCtx) };
        let grads = unsafe { std::slice::from_raw_parts(grad_outputs, n_outputs as usize) };
        let slots = unsafe { std::slice::from_raw_parts_mut(grad_inputs, n_inputs as usize) };
        run_backward(ctx, grads, slots)
    }));
    match outcome {
        Ok(Ok(())) => sys::CT_OK,
        Ok(Err(e)) => e.set_as_last_error(),
        Err(p) => Error::Callback(format!("backward closure panicked: {}", panic_text(p.as_ref()))).set_as_last_error(),
    }
}

unsafe extern "C" fn release_ctx(ctx: *mut c_void) {
    // Dropping the closure may run arbitrary Drop code: keep any panic on this side.
    let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(ctx as *mut CustomCtx) })));
}

/// Attaches `outputs` (computed by the caller, usually under [`no_grad`]) to a new autograd node whose
/// backward is `backward`; returns new tensors sharing the outputs' storage with that node as grad_fn.
/// The closure gets one gradient per output and returns one optional gradient per input. Errors it
/// returns and panics inside it surface as [`Error::Callback`] from `backward()`.
///
/// ```
/// use ctensor::{custom_function, no_grad, DType, Tensor};
/// let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0], &[3])?.requires_grad_(true)?;
/// let y = { let _g = no_grad(); (&x * 3.0)? };              // forward: y = 3x
/// let y = custom_function("Triple", &[&x], &[y], |g| Ok(vec![Some((&g[0] * 3.0)?)]))?.remove(0);
/// y.sum_all()?.backward()?;
/// assert_eq!(x.grad().unwrap().to_vec::<f64>()?, vec![3.0, 3.0, 3.0]);
/// # Ok::<(), ctensor::Error>(())
/// ```
pub fn custom_function<F>(name: &str, inputs: &[&Tensor], outputs: &[Tensor], backward: F) -> Result<Vec<Tensor>>
where
    F: FnMut(&[Tensor]) -> Result<Vec<Option<Tensor>>> + Send + 'static,
{
    ensure_abi()?;
    let cname =
        CString::new(name).map_err(|_| Error::InvalidArgument(format!("custom function name {name:?} has a NUL")))?;
    let ins = raws(inputs);
    let outs: Vec<sys::ct_tensor> = outputs.iter().map(Tensor::as_raw).collect();
    let ctx = Box::into_raw(Box::new(CustomCtx { name: name.to_owned(), backward: Mutex::new(Box::new(backward)) }));
    let mut results = vec![std::ptr::null_mut(); outs.len()];
    // ctx_release runs exactly once, also when this call fails, so ctx is never freed here.
    check(unsafe {
        sys::ct_custom_function_apply(
            cname.as_ptr(),
            ins.as_ptr(),
            ins.len() as i32,
            outs.as_ptr(),
            outs.len() as i32,
            Some(backward_trampoline),
            ctx.cast(),
            Some(release_ctx),
            results.as_mut_ptr(),
        )
    })?;
    Ok(results.into_iter().map(|h| unsafe { Tensor::from_raw(h) }).collect())
}
