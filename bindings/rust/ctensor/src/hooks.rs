//! Tensor hooks (`torch.Tensor.register_hook`): a Rust closure called during backward with the tensor's
//! gradient, which may replace it. The closure is boxed as the C hook's ctx and an `extern "C"` trampoline
//! calls it; the library frees the box (dropping the closure) when the hook is removed or when the tensor
//! and every graph that can reach it are gone.
use std::cell::RefCell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use ctensor_sys as sys;

use crate::autograd::panic_text;
use crate::error::{check, Error, Result};
use crate::tensor::Tensor;

/// The identifier of a registered hook, for [`Tensor::remove_hook`]. Ids are unique in the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HookId(i64);

impl HookId {
    /// The library's id number.
    pub fn as_raw(self) -> i64 {
        self.0
    }
}

type HookFn = Box<dyn FnMut(&Tensor) -> Result<Option<Tensor>> + Send>;

/// The ctx behind one hook. The Mutex lets whichever thread runs backward call the closure; the library
/// may free the ctx on any thread (hence the closure must be `Send`).
struct HookCtx {
    hook: Mutex<HookFn>,
}

thread_local! {
    /// The hooks running on this thread (innermost last), to refuse re-entry instead of deadlocking.
    static RUNNING: RefCell<Vec<*const HookCtx>> = const { RefCell::new(Vec::new()) };
}

/// Marks a hook as running on this thread for the guard's lifetime.
struct RunningGuard(*const HookCtx);

impl RunningGuard {
    /// Fails when this hook is already running on this thread (its closure ran a backward that reached
    /// the same hook again), which would otherwise deadlock on the closure's Mutex.
    fn enter(ctx: &HookCtx) -> Result<RunningGuard> {
        let me = ctx as *const HookCtx;
        RUNNING.with_borrow_mut(|running| {
            if running.contains(&me) {
                return Err(Error::Callback("tensor hook: the hook ran a backward that called it again".into()));
            }
            running.push(me);
            Ok(RunningGuard(me))
        })
    }
}

impl Drop for RunningGuard {
    fn drop(&mut self) {
        RUNNING.with_borrow_mut(|running| running.retain(|&c| c != self.0));
    }
}

unsafe extern "C" fn hook_trampoline(
    grad: sys::ct_tensor,
    ctx: *mut c_void,
    replacement: *mut sys::ct_tensor,
) -> sys::ct_status {
    // No panic may unwind into C: catch it and report it as a callback error.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: ctx is the HookCtx boxed by register_hook, alive until destroy_hook runs.
        let ctx = unsafe { &*(ctx as *const HookCtx) };
        // `grad` is borrowed for the call: take our own reference, released when `g` drops.
        let g = unsafe { Tensor::from_raw(sys::ct_tensor_retain(grad)) };
        let _running = RunningGuard::enter(ctx)?;
        let mut f = ctx.hook.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&g)
    }));
    match outcome {
        Ok(Ok(None)) => sys::CT_OK,
        Ok(Ok(Some(new_grad))) => {
            // Ownership of the reference passes to the library.
            unsafe { *replacement = new_grad.into_raw() };
            sys::CT_OK
        }
        Ok(Err(e)) => e.set_as_last_error(),
        Err(p) => Error::Callback(format!("tensor hook panicked: {}", panic_text(p.as_ref()))).set_as_last_error(),
    }
}

unsafe extern "C" fn destroy_hook(ctx: *mut c_void) {
    // Dropping the closure may run arbitrary Drop code: keep any panic on this side.
    let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(ctx as *mut HookCtx) })));
}

impl Tensor {
    /// Registers `hook` to run during backward with the gradient with respect to this tensor (a leaf or
    /// not; it must require grad), like `torch.Tensor.register_hook`. Returning `Ok(Some(g))` uses `g`
    /// (same shape and device, floating dtype) instead of the gradient; `Ok(None)` keeps it. On a leaf the
    /// hook runs before the gradient is accumulated into `.grad`. Hooks run in registration order on the
    /// thread that called backward. An error returned by the hook, or a panic inside it, fails the
    /// backward with [`Error::Callback`] carrying its message.
    ///
    /// The closure is dropped when the hook is removed, or once this tensor and every graph that can reach
    /// it are freed (also when registration fails). A hook whose closure runs a backward that reaches the
    /// same hook again fails that inner backward with [`Error::Callback`] (instead of deadlocking).
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let mut x = Tensor::from_slice(&[1.0f64, 2.0], &[2])?.requires_grad_(true)?;
    /// let id = x.register_hook(|g| Ok(Some((g * 10.0)?)))?;   // scale the incoming gradient
    /// (&x * &x)?.sum_all()?.backward()?;
    /// assert_eq!(x.grad().unwrap().to_vec::<f64>()?, vec![20.0, 40.0]);
    /// x.remove_hook(id)?;
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn register_hook<F>(&mut self, hook: F) -> Result<HookId>
    where
        F: FnMut(&Tensor) -> Result<Option<Tensor>> + Send + 'static,
    {
        let ctx = Box::into_raw(Box::new(HookCtx { hook: Mutex::new(Box::new(hook)) }));
        let mut id = 0i64;
        // destroy_hook runs exactly once, also when this call fails, so ctx is never freed here.
        check(unsafe {
            sys::ct_tensor_register_hook(self.as_raw(), Some(hook_trampoline), ctx.cast(), Some(destroy_hook), &mut id)
        })?;
        Ok(HookId(id))
    }

    /// Removes a hook registered on this tensor; its closure is dropped once no backward is running it.
    /// [`Error::InvalidArgument`] when this tensor has no hook with that id (e.g. removed already).
    pub fn remove_hook(&mut self, id: HookId) -> Result<()> {
        check(unsafe { sys::ct_tensor_remove_hook(self.as_raw(), id.0) })
    }
}
