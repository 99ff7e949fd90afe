//! Module hooks, as torch's `register_forward_pre_hook`, `register_forward_hook` and
//! `register_full_backward_hook`: [`Hooked`] wraps any [`Module`] and runs the registered closures around its
//! forward. The backward hooks are two identity nodes made with [`custom_function`], one on the module's input
//! and one on its output (torch's `BackwardHook` does the same): the output's node records the gradient of the
//! output, the input's node calls the hooks with both gradients and passes on what they return.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use crate::autograd::{custom_function, is_grad_enabled, no_grad};
use crate::error::{Error, Result};
use crate::nn::Module;
use crate::tensor::Tensor;

/// The identifier of a registered module hook, for [`Hooked::remove_hook`]. Ids are unique in the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModuleHookId(u64);

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn next_id() -> ModuleHookId {
    ModuleHookId(NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

/// `hook(input)`: `Some(x)` replaces the module's input.
pub type ForwardPreHook = Box<dyn FnMut(&Tensor) -> Result<Option<Tensor>> + Send>;
/// `hook(input, output)`: `Some(y)` replaces the module's output.
pub type ForwardHook = Box<dyn FnMut(&Tensor, &Tensor) -> Result<Option<Tensor>> + Send>;
/// `hook(grad_input, grad_output)`: `Some(g)` replaces the gradient passed on to the input. `grad_input` is `None`
/// when the input does not require grad (the hook then runs when the output's gradient is known).
pub type FullBackwardHook = Box<dyn FnMut(Option<&Tensor>, &Tensor) -> Result<Option<Tensor>> + Send>;

type Hooks<H> = Arc<Mutex<Vec<(ModuleHookId, H)>>>;

/// Locks a hook list for running or changing it. A hook that calls back into the same module (its forward, or
/// registering a hook) finds the list locked by itself: that is refused, not a deadlock.
fn lock<'a, H>(hooks: &'a Hooks<H>, what: &str) -> Result<MutexGuard<'a, Vec<(ModuleHookId, H)>>> {
    match hooks.try_lock() {
        Ok(guard) => Ok(guard),
        Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(TryLockError::WouldBlock) => {
            Err(Error::Callback(format!("module hooks: the {what} hooks are in use (a hook called back into its module)")))
        }
    }
}

/// A module with hooks around its forward (torch's module hooks).
///
/// ```
/// use ctensor::nn::{Hooked, Linear, Module};
/// use ctensor::Tensor;
/// let mut layer = Hooked::new(Linear::new(3, 2)?);
/// layer.register_forward_hook(|_input, output| Ok(Some(output.relu()?)))?;
/// let y = layer.forward(&Tensor::ones(&[4, 3], ctensor::DType::Float32)?)?;
/// assert!(y.to_vec::<f32>()?.iter().all(|&v| v >= 0.0));
/// # Ok::<(), ctensor::Error>(())
/// ```
pub struct Hooked<M: Module> {
    /// The wrapped module.
    pub module: M,
    pre: Hooks<ForwardPreHook>,
    post: Hooks<ForwardHook>,
    backward: Hooks<FullBackwardHook>,
}

impl<M: Module> Hooked<M> {
    /// `module` without hooks yet.
    pub fn new(module: M) -> Hooked<M> {
        Hooked { module, pre: Hooks::default(), post: Hooks::default(), backward: Hooks::default() }
    }

    /// Runs `hook(input)` before each forward; `Some(x)` replaces the input (torch's `register_forward_pre_hook`).
    /// Hooks run in the order they were registered.
    pub fn register_forward_pre_hook<F>(&mut self, hook: F) -> Result<ModuleHookId>
    where
        F: FnMut(&Tensor) -> Result<Option<Tensor>> + Send + 'static,
    {
        let id = next_id();
        lock(&self.pre, "forward pre")?.push((id, Box::new(hook)));
        Ok(id)
    }

    /// Runs `hook(input, output)` after each forward; `Some(y)` replaces the output (torch's
    /// `register_forward_hook`).
    pub fn register_forward_hook<F>(&mut self, hook: F) -> Result<ModuleHookId>
    where
        F: FnMut(&Tensor, &Tensor) -> Result<Option<Tensor>> + Send + 'static,
    {
        let id = next_id();
        lock(&self.post, "forward")?.push((id, Box::new(hook)));
        Ok(id)
    }

    /// Runs `hook(grad_input, grad_output)` during backward, once the gradient with respect to the module's input
    /// is known; `Some(g)` replaces that gradient (torch's `register_full_backward_hook`). Applies to forwards run
    /// with grad mode on after it was registered; an error it returns fails the backward.
    pub fn register_full_backward_hook<F>(&mut self, hook: F) -> Result<ModuleHookId>
    where
        F: FnMut(Option<&Tensor>, &Tensor) -> Result<Option<Tensor>> + Send + 'static,
    {
        let id = next_id();
        lock(&self.backward, "backward")?.push((id, Box::new(hook)));
        Ok(id)
    }

    /// Removes a hook; false when no hook of this module has that id (e.g. removed already).
    pub fn remove_hook(&mut self, id: ModuleHookId) -> Result<bool> {
        let pre = remove_from(&self.pre, id, "forward pre")?;
        let post = remove_from(&self.post, id, "forward")?;
        Ok(remove_from(&self.backward, id, "backward")? || pre || post)
    }
}

fn remove_from<H>(hooks: &Hooks<H>, id: ModuleHookId, what: &str) -> Result<bool> {
    let mut list = lock(hooks, what)?;
    let before = list.len();
    list.retain(|(i, _)| *i != id);
    Ok(list.len() != before)
}

/// Calls the backward hooks in order, each seeing the gradient the previous one returned.
fn run_backward_hooks(hooks: &Hooks<FullBackwardHook>, grad_input: Option<Tensor>, grad_output: &Tensor)
    -> Result<Option<Tensor>> {
    let mut grad_input = grad_input;
    for (_, hook) in lock(hooks, "backward")?.iter_mut() {
        if let Some(g) = hook(grad_input.as_ref(), grad_output)? {
            grad_input = Some(g);
        }
    }
    Ok(grad_input)
}

/// An identity node on `x` (a new tensor sharing its storage) whose backward calls `backward` with x's gradient.
fn identity_node<F>(x: &Tensor, backward: F) -> Result<Tensor>
where
    F: FnMut(&Tensor) -> Result<Option<Tensor>> + Send + 'static,
{
    let alias = {
        let _g = no_grad();
        x.detach()?
    };
    let mut backward = backward;
    Ok(custom_function("BackwardHookFunctionBackward", &[x], &[alias], move |g| Ok(vec![backward(&g[0])?]))?.remove(0))
}

impl<M: Module> Module for Hooked<M> {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let mut x = x.clone();
        for (_, hook) in lock(&self.pre, "forward pre")?.iter_mut() {
            if let Some(nx) = hook(&x)? {
                x = nx;
            }
        }
        let hook_backward = is_grad_enabled() && !lock(&self.backward, "backward")?.is_empty();
        // The output's gradient, recorded by the output's node for the input's node (backward reaches the output's
        // node first: the input's node lies behind it).
        let grad_output: Arc<Mutex<Option<Tensor>>> = Arc::default();
        let input_hooked = hook_backward && x.requires_grad();
        if input_hooked {
            let (hooks, recorded) = (self.backward.clone(), grad_output.clone());
            x = identity_node(&x, move |grad_input| {
                let go = recorded.lock().unwrap_or_else(|p| p.into_inner()).take();
                match go {
                    Some(go) => run_backward_hooks(&hooks, Some(grad_input.clone()), &go),
                    None => Ok(Some(grad_input.clone())), // the output was not part of this backward
                }
            })?;
        }
        let mut y = self.module.forward(&x)?;
        for (_, hook) in lock(&self.post, "forward")?.iter_mut() {
            if let Some(ny) = hook(&x, &y)? {
                y = ny;
            }
        }
        if hook_backward && y.requires_grad() {
            let hooks = self.backward.clone();
            y = identity_node(&y, move |g| {
                if input_hooked {
                    *grad_output.lock().unwrap_or_else(|p| p.into_inner()) = Some(g.clone());
                } else {
                    run_backward_hooks(&hooks, None, g)?; // no input gradient to replace
                }
                Ok(Some(g.clone()))
            })?;
        }
        Ok(y)
    }

    fn parameters(&self) -> Vec<Tensor> {
        self.module.parameters()
    }

    fn set_training(&mut self, training: bool) {
        self.module.set_training(training)
    }
}
