//! Optimizer state save / restore (re-exported from `optim`): per-parameter state tensors by name and step
//! counts, and `state_dict` / `load_state_dict` snapshots like torch's, for resuming training exactly.
use std::collections::BTreeMap;
use std::ffi::CString;

use ctensor_sys as sys;

use crate::error::{check, Error, Result};
use crate::optim::Optimizer;
use crate::tensor::{opt_raw, Tensor};

/// A snapshot of an optimizer: its learning rate and, per parameter (in the order the optimizer was built
/// with), the step count and the state tensors by name. The tensors are copies, independent of the
/// optimizer. Load it into an optimizer of the same kind over parameters of the same shapes.
#[derive(Clone, Debug)]
pub struct OptimizerState {
    /// The learning rate.
    pub lr: f64,
    /// One entry per parameter.
    pub params: Vec<ParamState>,
}

/// The state of one parameter in an [`OptimizerState`].
#[derive(Clone, Debug, Default)]
pub struct ParamState {
    /// Updates applied so far (Adam/AdamW bias correction); `None` for optimizers without a count (SGD).
    pub step: Option<i64>,
    /// State tensors by name (`"momentum_buffer"` for SGD with momentum, `"exp_avg"` and `"exp_avg_sq"`
    /// for Adam/AdamW); a name is absent while that state is not created yet (before the first step).
    pub tensors: BTreeMap<String, Tensor>,
}

/// A parameter index as the C API's int32.
fn param_i32(op: &str, param: usize) -> Result<i32> {
    i32::try_from(param).map_err(|_| Error::Index(format!("{op}: parameter index {param} is out of range")))
}

fn state_name(op: &str, name: &str) -> Result<CString> {
    CString::new(name).map_err(|_| Error::InvalidArgument(format!("{op}: state name {name:?} contains a NUL byte")))
}

impl Optimizer {
    /// Sets hyper-parameter `name` ("lr"; SGD "momentum", "dampening", "weight_decay", "nesterov" as 0 or 1;
    /// Adam/AdamW "beta1", "beta2", "eps", "weight_decay"), checked like the builder's values; it is used from
    /// the next step on (for schedules that cycle momentum or betas).
    pub fn set_hparam(&mut self, name: &str, value: f64) -> Result<()> {
        let c_name = CString::new(name)
            .map_err(|_| Error::InvalidArgument(format!("set_hparam: name {name:?} contains a NUL byte")))?;
        check(unsafe { sys::ct_optimizer_set_hparam(self.as_raw(), c_name.as_ptr(), value) })
    }

    /// The current value of hyper-parameter `name` (names as for [`Optimizer::set_hparam`]).
    pub fn hparam(&self, name: &str) -> Result<f64> {
        let c_name = CString::new(name)
            .map_err(|_| Error::InvalidArgument(format!("hparam: name {name:?} contains a NUL byte")))?;
        let mut value = 0.0;
        check(unsafe { sys::ct_optimizer_get_hparam(self.as_raw(), c_name.as_ptr(), &mut value) })?;
        Ok(value)
    }

    /// Number of parameters this optimizer updates.
    pub fn num_params(&self) -> usize {
        let mut n = 0i32;
        check(unsafe { sys::ct_optimizer_num_params(self.as_raw(), &mut n) }).expect("num_params of a live optimizer");
        n as usize
    }

    /// Names of the per-parameter state tensors this kind of optimizer keeps (empty for plain SGD).
    pub fn state_names(&self) -> Vec<String> {
        let mut buf = vec![0u8; 64];
        loop {
            let (cap, mut len) = (buf.len() as i32, 0i32);
            check(unsafe { sys::ct_optimizer_state_names(self.as_raw(), buf.as_mut_ptr().cast(), cap, &mut len) })
                .expect("state names of a live optimizer");
            if len < cap {
                let text = String::from_utf8_lossy(&buf[..len as usize]).into_owned();
                return text.split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect();
            }
            buf.resize(len as usize + 1, 0);
        }
    }

    /// A copy of state tensor `name` of parameter `param`; `None` while it is not created yet.
    pub fn state(&self, param: usize, name: &str) -> Result<Option<Tensor>> {
        let (p, n) = (param_i32("optimizer_get_state", param)?, state_name("optimizer_get_state", name)?);
        let mut out = std::ptr::null_mut();
        check(unsafe { sys::ct_optimizer_get_state(self.as_raw(), p, n.as_ptr(), &mut out) })?;
        // SAFETY: a non-NULL out is a new reference that we now own.
        Ok((!out.is_null()).then(|| unsafe { Tensor::from_raw(out) }))
    }

    /// Replaces state tensor `name` of parameter `param` with a copy of `value` (the parameter's shape;
    /// converted to its dtype); `None` clears it, so the next step creates it afresh.
    pub fn set_state(&mut self, param: usize, name: &str, value: Option<&Tensor>) -> Result<()> {
        let (p, n) = (param_i32("optimizer_set_state", param)?, state_name("optimizer_set_state", name)?);
        check(unsafe { sys::ct_optimizer_set_state(self.as_raw(), p, n.as_ptr(), opt_raw(value)) })
    }

    /// Updates applied to parameter `param` (Adam/AdamW); [`Error::NotSupported`] for SGD.
    pub fn step_count(&self, param: usize) -> Result<i64> {
        let p = param_i32("optimizer_get_step", param)?;
        let mut step = 0i64;
        check(unsafe { sys::ct_optimizer_get_step(self.as_raw(), p, &mut step) })?;
        Ok(step)
    }

    /// Sets the update count of parameter `param` (>= 0) when resuming training (Adam/AdamW).
    pub fn set_step_count(&mut self, param: usize, step: i64) -> Result<()> {
        let p = param_i32("optimizer_set_step", param)?;
        check(unsafe { sys::ct_optimizer_set_step(self.as_raw(), p, step) })
    }

    /// The step count of `param`, or `None` when this kind of optimizer keeps none.
    fn optional_step(&self, param: usize) -> Result<Option<i64>> {
        match self.step_count(param) {
            Ok(step) => Ok(Some(step)),
            Err(Error::NotSupported(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A snapshot of the learning rate, step counts and state tensors (copies), like torch's
    /// `optimizer.state_dict()`.
    ///
    /// ```
    /// use ctensor::{optim::Adam, DType, Tensor};
    /// let w = Tensor::ones(&[3], DType::Float64)?.requires_grad_(true)?;
    /// let mut opt = Adam::new(0.1).build(std::slice::from_ref(&w))?;
    /// (&w * &w)?.sum_all()?.backward()?;
    /// opt.step()?;
    /// let saved = opt.state_dict()?;
    /// assert_eq!(saved.params[0].step, Some(1));
    /// assert!(saved.params[0].tensors.contains_key("exp_avg_sq"));
    ///
    /// let mut resumed = Adam::new(0.1).build(std::slice::from_ref(&w))?;   // e.g. after a restart
    /// resumed.load_state_dict(&saved)?;
    /// assert_eq!(resumed.step_count(0)?, 1);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn state_dict(&self) -> Result<OptimizerState> {
        let names = self.state_names();
        let mut params = Vec::with_capacity(self.num_params());
        for p in 0..self.num_params() {
            let mut tensors = BTreeMap::new();
            for name in &names {
                if let Some(t) = self.state(p, name)? {
                    tensors.insert(name.clone(), t);
                }
            }
            params.push(ParamState { step: self.optional_step(p)?, tensors });
        }
        Ok(OptimizerState { lr: self.lr(), params })
    }

    /// Restores a snapshot from [`Optimizer::state_dict`]: the learning rate, and for every parameter its
    /// state tensors (names absent from the snapshot are cleared) and step count (`None` resets it to 0
    /// on optimizers that keep one). Either everything is loaded or, on error, nothing changes. (A state
    /// tensor absent from the snapshot starts again at zeros on the next step.)
    pub fn load_state_dict(&mut self, state: &OptimizerState) -> Result<()> {
        let names = self.state_names();
        if state.params.len() != self.num_params() {
            return Err(Error::InvalidArgument(format!(
                "load_state_dict: the state has {} parameter entries, the optimizer has {} parameters",
                state.params.len(),
                self.num_params()
            )));
        }
        for (p, ps) in state.params.iter().enumerate() {
            if let Some(unknown) = ps.tensors.keys().find(|k| !names.contains(k)) {
                return Err(Error::InvalidArgument(format!(
                    "load_state_dict: parameter {p} has state '{unknown}', this optimizer keeps only {names:?}"
                )));
            }
        }
        let backup = self.state_dict()?;
        self.apply_state(state, &names).inspect_err(|_| {
            // Best effort: the backup came from this optimizer, so restoring it cannot meet a mismatch.
            let _ = self.apply_state(&backup, &names);
        })
    }

    fn apply_state(&mut self, state: &OptimizerState, names: &[String]) -> Result<()> {
        self.set_lr(state.lr)?;
        for (p, ps) in state.params.iter().enumerate() {
            for name in names {
                self.set_state(p, name, ps.tensors.get(name))?;
            }
            match ps.step {
                Some(step) => self.set_step_count(p, step)?,
                None if self.optional_step(p)?.is_some() => self.set_step_count(p, 0)?,
                None => {}
            }
        }
        Ok(())
    }
}
