//! Random numbers: seeded generators (the same seed gives the same numbers on every platform) and the
//! random constructors; `None` as generator uses the library's default generator.
use ctensor_sys as sys;

use crate::error::{check, ensure_abi, Result};
use crate::tensor::{out1, Tensor};
use crate::types::{Device, Options};

/// A seeded random number generator. Drawing numbers advances its state, so ops take it by `&mut`.
///
/// `Clone` is a new reference to the *same* generator (like `Arc::clone`): clones share one stream, and
/// numbers drawn through one are not drawn again through another. Use [`Generator::new`] with a seed for
/// an independent stream. `Send` but not `Sync`; clones may be used on different threads at once (the
/// library reserves each op's numbers under the generator's lock), though the interleaving then decides
/// which thread gets which numbers.
///
/// ```
/// use ctensor::{DType, Generator, Tensor};
/// let mut a = Generator::new(7)?;
/// let mut shared = a.clone();
/// let first = Tensor::rand(&[2], DType::Float64, Some(&mut a))?;
/// let second = Tensor::rand(&[2], DType::Float64, Some(&mut shared))?;   // continues a's stream
/// let mut fresh = Generator::new(7)?;
/// let _ = Tensor::rand(&[2], DType::Float64, Some(&mut fresh))?;
/// assert_eq!(second.to_vec::<f64>()?, Tensor::rand(&[2], DType::Float64, Some(&mut fresh))?.to_vec::<f64>()?);
/// assert_ne!(first.to_vec::<f64>()?, second.to_vec::<f64>()?);
/// # Ok::<(), ctensor::Error>(())
/// ```
pub struct Generator {
    raw: sys::ct_generator,
}

// SAFETY: the handle is thread-safe to move and release, and the library locks the generator's state
// while an op reserves numbers, so clones on several threads cannot race.
unsafe impl Send for Generator {}

impl Drop for Generator {
    fn drop(&mut self) {
        unsafe { sys::ct_generator_release(self.raw) }
    }
}

impl Clone for Generator {
    /// A new reference to the same generator (shared stream).
    fn clone(&self) -> Generator {
        Generator { raw: unsafe { sys::ct_generator_retain(self.raw) } }
    }
}

impl Generator {
    /// A new generator seeded with `seed`.
    pub fn new(seed: u64) -> Result<Generator> {
        ensure_abi()?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::ct_generator_new(seed, &mut raw) })?;
        Ok(Generator { raw })
    }

    /// Resets the state from `seed`.
    pub fn seed(&mut self, seed: u64) -> Result<()> {
        check(unsafe { sys::ct_generator_seed(self.raw, seed) })
    }

    /// The handle, still owned by this generator.
    pub fn as_raw(&self) -> sys::ct_generator {
        self.raw
    }
}

/// Reseeds the default generator (used wherever a generator argument is `None`).
pub fn manual_seed(seed: u64) -> Result<()> {
    ensure_abi()?;
    check(unsafe { sys::ct_manual_seed(seed) })
}

pub(crate) fn gen_raw(gen: Option<&mut Generator>) -> sys::ct_generator {
    gen.map_or(std::ptr::null_mut(), |g| g.raw)
}

impl Tensor {
    /// Uniform `[0, 1)` floats.
    pub fn rand(shape: &[i64], options: impl Into<Options>, gen: Option<&mut Generator>) -> Result<Tensor> {
        let o = options.into();
        let g = gen_raw(gen);
        out1(|out| unsafe {
            sys::ct_rand(shape.as_ptr(), shape.len() as i32, o.dtype.to_raw(), o.device.to_raw(), g, out)
        })
    }

    /// Standard normal floats.
    pub fn randn(shape: &[i64], options: impl Into<Options>, gen: Option<&mut Generator>) -> Result<Tensor> {
        let o = options.into();
        let g = gen_raw(gen);
        out1(|out| unsafe {
            sys::ct_randn(shape.as_ptr(), shape.len() as i32, o.dtype.to_raw(), o.device.to_raw(), g, out)
        })
    }

    /// Uniform integers in `[low, high)`.
    pub fn randint(
        low: i64,
        high: i64,
        shape: &[i64],
        options: impl Into<Options>,
        gen: Option<&mut Generator>,
    ) -> Result<Tensor> {
        let o = options.into();
        let g = gen_raw(gen);
        out1(|out| unsafe {
            sys::ct_randint(low, high, shape.as_ptr(), shape.len() as i32, o.dtype.to_raw(), o.device.to_raw(), g, out)
        })
    }

    /// Random permutation of `0..n` (int64).
    pub fn randperm(n: i64, device: Device, gen: Option<&mut Generator>) -> Result<Tensor> {
        let g = gen_raw(gen);
        out1(|out| unsafe { sys::ct_randperm(n, device.to_raw(), g, out) })
    }

    /// 0/1 draws with probabilities `self` (a floating tensor in `[0, 1]`), same shape and dtype.
    pub fn bernoulli(&self, gen: Option<&mut Generator>) -> Result<Tensor> {
        let g = gen_raw(gen);
        out1(|out| unsafe { sys::ct_bernoulli(self.as_raw(), g, out) })
    }
}
