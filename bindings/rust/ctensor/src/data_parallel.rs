//! `nn::DistributedDataParallel`: averages the parameters' gradients over a process group during backward
//! (torch's DDP), over the C ABI's `ct_data_parallel` (docs/distributed.md).
use ctensor_sys as sys;

use crate::distributed::ProcessGroup;
use crate::error::{check, ensure_abi, Result};
use crate::tensor::Tensor;

/// Data-parallel training: every rank runs the same model on its own part of the batch, and each backward leaves
/// in every parameter's `.grad` the mean over the ranks of its gradient, so an optimizer step keeps the replicas
/// equal. Creating it is collective: it broadcasts the parameters from rank 0 (in place) and registers gradient
/// hooks on them; dropping it removes the hooks.
///
/// ```no_run
/// use ctensor::distributed::ProcessGroup;
/// use ctensor::nn::{DistributedDataParallel, Linear, Module};
/// use ctensor::optim::Sgd;
/// # use ctensor::{DType, Tensor};
/// let world = ProcessGroup::mpi()?;
/// let model = Linear::new(4, 1)?;
/// let mut ddp = DistributedDataParallel::new(&world, &model.parameters())?;
/// let mut opt = Sgd::new(0.1).build(&model.parameters())?;
/// # let (x, y) = (Tensor::ones(&[8, 4], DType::Float32)?, Tensor::ones(&[8, 1], DType::Float32)?);
/// ddp.no_sync(|| (&model.forward(&x)? - &y)?.pow_scalar(2.0)?.mean_all()?.backward())?; // accumulate locally
/// (&model.forward(&x)? - &y)?.pow_scalar(2.0)?.mean_all()?.backward()?; // averages both over the ranks
/// opt.step()?;
/// # Ok::<(), ctensor::Error>(())
/// ```
pub struct DistributedDataParallel {
    raw: sys::ct_data_parallel,
}

// SAFETY: the library locks the reducer's state; the handle may be released on any thread. Changing the sync mode
// and finishing take `&mut self`.
unsafe impl Send for DistributedDataParallel {}

impl Drop for DistributedDataParallel {
    fn drop(&mut self) {
        unsafe { sys::ct_data_parallel_release(self.raw) }
    }
}

fn raws(ts: &[Tensor]) -> Result<(Vec<sys::ct_tensor>, i32)> {
    let n = i32::try_from(ts.len())
        .map_err(|_| crate::Error::InvalidArgument(format!("data_parallel: {} tensors", ts.len())))?;
    Ok((ts.iter().map(Tensor::as_raw).collect(), n))
}

impl DistributedDataParallel {
    /// Averages the gradients of `params` (distinct leaves that require grad, the same shapes and dtypes on every
    /// rank) over `pg`, in buckets of the default size (25 MiB).
    pub fn new(pg: &ProcessGroup, params: &[Tensor]) -> Result<DistributedDataParallel> {
        DistributedDataParallel::with_bucket_bytes(pg, params, 0)
    }

    /// As [`new`](Self::new), with gradient buckets of about `bucket_bytes` (<= 0: the default, 25 MiB). Each
    /// full bucket is all-reduced asynchronously while backward goes on.
    pub fn with_bucket_bytes(
        pg: &ProcessGroup,
        params: &[Tensor],
        bucket_bytes: i64,
    ) -> Result<DistributedDataParallel> {
        ensure_abi()?;
        let (hs, n) = raws(params)?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::ct_data_parallel_new(pg.as_raw(), hs.as_ptr(), n, bucket_bytes, &mut raw) })?;
        Ok(DistributedDataParallel { raw })
    }

    /// `false`: later backwards accumulate into `.grad` locally without communicating; the next backward with
    /// `true` (the default) averages the accumulated gradients. Prefer [`no_sync`](Self::no_sync).
    pub fn set_sync(&mut self, sync: bool) -> Result<()> {
        check(unsafe { sys::ct_data_parallel_set_sync(self.raw, sync as i32) })
    }

    /// Runs `body` (typically forward and backward of one micro-batch) without averaging: its gradients
    /// accumulate locally and are averaged by the next backward outside (torch's `no_sync()`). Sync is back on
    /// afterwards, also when `body` fails.
    pub fn no_sync<T>(&mut self, body: impl FnOnce() -> Result<T>) -> Result<T> {
        self.set_sync(false)?;
        let out = body();
        let restored = self.set_sync(true);
        let value = out?;
        restored.map(|()| value)
    }

    /// Completes a reduction that the last backward left open because some parameters got no gradient (they
    /// count as zero); does nothing when the backward completed it. Call it before the optimizer step when parts
    /// of the model may go unused.
    pub fn finish(&mut self) -> Result<()> {
        check(unsafe { sys::ct_data_parallel_finish(self.raw) })
    }

    /// The number of buckets the gradients are packed into (one all-reduce each per synchronising backward).
    pub fn bucket_count(&self) -> usize {
        let mut n = 0;
        check(unsafe { sys::ct_data_parallel_bucket_count(self.raw, &mut n) })
            .unwrap_or_else(|e| panic!("ctensor data-parallel query failed: {e}"));
        n as usize
    }

    /// Optional, after the forward and before a synchronising backward (torch's `find_unused_parameters`):
    /// parameters the graph of `outputs` cannot reach count as zero from the start, so the backward completes the
    /// reduction itself; parameters unused on every rank keep their `.grad`. All ranks call it or none does.
    pub fn prepare(&mut self, outputs: &[Tensor]) -> Result<()> {
        let (hs, n) = raws(outputs)?;
        check(unsafe { sys::ct_data_parallel_prepare(self.raw, hs.as_ptr(), n) })
    }
}
