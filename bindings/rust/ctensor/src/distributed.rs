//! Distributed training over the C ABI's process groups (Open MPI for CPU tensors; docs/distributed.md):
//! a [`ProcessGroup`] from the MPI launch, subgroups, collectives in place on tensors, point to point, and
//! asynchronous [`Work`]s. Run the program under `mpirun -np N`; every rank must make the same calls in the
//! same order. A rank that disagrees (shape, dtype, op) or does not arrive within the group's timeout makes
//! every rank fail with [`Error::Distributed`](crate::Error::Distributed) instead of hanging; without the
//! MPI backend every call is [`Error::NotCompiled`](crate::Error::NotCompiled).
//!
//! ```no_run
//! use ctensor::distributed::{ProcessGroup, ReduceOp};
//! use ctensor::{DType, Tensor};
//! let world = ProcessGroup::mpi()?;                 // rank and size from mpirun
//! let mut g = (Tensor::ones(&[1000], DType::Float32)? * world.rank() as f64)?;
//! world.all_reduce(&mut g, ReduceOp::Mean)?;        // in place: the mean over the ranks
//! world.broadcast(&mut g, 0)?;
//! let gathered = world.all_gather(&g)?;            // shape [size, 1000]
//! # Ok::<(), ctensor::Error>(())
//! ```
use std::marker::PhantomData;
use std::time::Duration;

use ctensor_sys as sys;

use crate::error::{check, ensure_abi, Result};
use crate::tensor::{out1, Tensor};

/// The reduction of [`ProcessGroup::all_reduce`] and [`ProcessGroup::reduce_scatter`] (`ct_reduce_op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Sum (bool: or).
    Sum,
    /// Sum divided by the group size (floating dtypes only, else `Error::DType`).
    Mean,
    /// Maximum (bool: or).
    Max,
    /// Minimum (bool: and).
    Min,
    /// Product (bool: and).
    Product,
}

impl ReduceOp {
    /// Every reduce op, in the C enum's order.
    pub const ALL: [ReduceOp; 5] = [ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min, ReduceOp::Product];

    /// The C ABI value.
    pub fn to_raw(self) -> sys::ct_reduce_op {
        match self {
            ReduceOp::Sum => sys::CT_REDUCE_SUM,
            ReduceOp::Mean => sys::CT_REDUCE_MEAN,
            ReduceOp::Max => sys::CT_REDUCE_MAX,
            ReduceOp::Min => sys::CT_REDUCE_MIN,
            ReduceOp::Product => sys::CT_REDUCE_PRODUCT,
        }
    }
}

/// A group of processes (ranks) that run collectives; owns one library handle reference (Drop releases,
/// Clone retains). Works in flight keep the group alive.
pub struct ProcessGroup {
    raw: sys::ct_process_group,
}

// SAFETY: the library serialises the calls on one group and any thread may make them (docs/distributed.md);
// handles are reference counted atomically and may be released on any thread.
unsafe impl Send for ProcessGroup {}
unsafe impl Sync for ProcessGroup {}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        unsafe { sys::ct_process_group_release(self.raw) }
    }
}

impl Clone for ProcessGroup {
    /// A new reference to the same group.
    fn clone(&self) -> ProcessGroup {
        ProcessGroup { raw: unsafe { sys::ct_process_group_retain(self.raw) } }
    }
}

impl std::fmt::Debug for ProcessGroup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ProcessGroup(rank {} of {})", self.rank(), self.size())
    }
}

fn new_group(call: impl FnOnce(*mut sys::ct_process_group) -> sys::ct_status) -> Result<ProcessGroup> {
    ensure_abi()?;
    let mut raw = std::ptr::null_mut();
    check(call(&mut raw))?;
    Ok(ProcessGroup { raw })
}

impl ProcessGroup {
    /// The world group of the MPI launch (`mpirun`/`srun`); initialises MPI if the program has not.
    pub fn mpi() -> Result<ProcessGroup> {
        new_group(|o| unsafe { sys::ct_process_group_new_mpi(o) })
    }

    /// A group of `ranks` of this group (members get their position in `ranks` as rank). Collective: every
    /// rank of `self` must call it with the same list; a rank not in it gets a group of size 0 and rank -1,
    /// on which collectives fail.
    pub fn subgroup(&self, ranks: &[i32]) -> Result<ProcessGroup> {
        let n = i32::try_from(ranks.len())
            .map_err(|_| crate::Error::InvalidArgument(format!("process_group_new_subgroup: {} ranks", ranks.len())))?;
        new_group(|o| unsafe { sys::ct_process_group_new_subgroup(self.raw, ranks.as_ptr(), n, o) })
    }

    /// The handle, still owned by `self` (for calling `ctensor_sys` directly).
    pub fn as_raw(&self) -> sys::ct_process_group {
        self.raw
    }

    fn query(&self, f: impl FnOnce(sys::ct_process_group, *mut i32) -> sys::ct_status) -> i32 {
        let mut v = 0;
        check(f(self.raw, &mut v)).unwrap_or_else(|e| panic!("ctensor process group query failed: {e}"));
        v
    }

    /// This process's rank in the group (-1 when it is not a member).
    pub fn rank(&self) -> i32 {
        self.query(|pg, v| unsafe { sys::ct_process_group_rank(pg, v) })
    }

    /// The number of ranks (0 when this process is not a member).
    pub fn size(&self) -> i32 {
        self.query(|pg, v| unsafe { sys::ct_process_group_size(pg, v) })
    }

    /// Whether this process belongs to the group.
    pub fn is_member(&self) -> bool {
        self.rank() >= 0
    }

    /// How long later calls wait for the other ranks before failing (> 0; default
    /// `$CTENSOR_DIST_TIMEOUT`, else 300 s). After a timeout the group is unusable.
    pub fn set_timeout(&self, timeout: Duration) -> Result<()> {
        check(unsafe { sys::ct_process_group_set_timeout(self.raw, timeout.as_secs_f64()) })
    }

    /// `false` trades safety for latency: later collectives skip the agreement round trip, so ranks that disagree
    /// (shape, dtype, op) are no longer reported (MPI's undefined behaviour: a hang, an error or wrong data) and a
    /// blocking collective waits for absent ranks without a timeout. `true` (the default) turns the checks back on.
    pub fn set_checks(&self, enabled: bool) -> Result<()> {
        check(unsafe { sys::ct_process_group_set_checks(self.raw, enabled as i32) })
    }

    /// In place: `t` = `op` over the ranks' `t`.
    pub fn all_reduce(&self, t: &mut Tensor, op: ReduceOp) -> Result<()> {
        check(unsafe { sys::ct_all_reduce(self.raw, t.as_raw(), op.to_raw()) })
    }

    /// In place: `t` = rank `root`'s `t` on every rank.
    pub fn broadcast(&self, t: &mut Tensor, root: i32) -> Result<()> {
        check(unsafe { sys::ct_broadcast(self.raw, t.as_raw(), root) })
    }

    /// The ranks' inputs stacked in rank order: shape `[size, *input.shape]`.
    pub fn all_gather(&self, input: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_all_gather(self.raw, input.as_raw(), o) })
    }

    /// This rank's chunk (dim 0 split in `size` parts) of `op` over the ranks' inputs.
    pub fn reduce_scatter(&self, input: &Tensor, op: ReduceOp) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_reduce_scatter(self.raw, input.as_raw(), op.to_raw(), o) })
    }

    /// Returns once every rank of the group has called it.
    pub fn barrier(&self) -> Result<()> {
        check(unsafe { sys::ct_barrier(self.raw) })
    }

    /// Sends `t` to rank `dst`, matched by a [`recv`](Self::recv) there with the same `tag` (>= 0). A large
    /// send may wait for its receive: order sends and receives so that they pair up.
    pub fn send(&self, t: &Tensor, dst: i32, tag: i32) -> Result<()> {
        check(unsafe { sys::ct_send(self.raw, t.as_raw(), dst, tag) })
    }

    /// Receives into `t` (the sender's number of elements and dtype) from rank `src` with `tag`.
    pub fn recv(&self, t: &mut Tensor, src: i32, tag: i32) -> Result<()> {
        check(unsafe { sys::ct_recv(self.raw, t.as_raw(), src, tag) })
    }

    /// Starts [`all_reduce`](Self::all_reduce); `t` stays mutably borrowed until the [`Work`] is dropped.
    pub fn all_reduce_async<'t>(&self, t: &'t mut Tensor, op: ReduceOp) -> Result<Work<'t>> {
        Work::start(|o| unsafe { sys::ct_all_reduce_async(self.raw, t.as_raw(), op.to_raw(), o) })
    }

    /// Starts [`broadcast`](Self::broadcast); `t` stays mutably borrowed until the [`Work`] is dropped.
    pub fn broadcast_async<'t>(&self, t: &'t mut Tensor, root: i32) -> Result<Work<'t>> {
        Work::start(|o| unsafe { sys::ct_broadcast_async(self.raw, t.as_raw(), root, o) })
    }
}

/// An asynchronous collective in flight. It borrows its tensor mutably, so the tensor cannot be read or
/// written until the work is dropped; dropping an unfinished work waits for it (its error, if any, is then
/// lost: call [`wait`](Work::wait) to see it).
///
/// ```compile_fail,E0502
/// # use ctensor::distributed::{ProcessGroup, ReduceOp};
/// # use ctensor::{DType, Tensor};
/// # let world = ProcessGroup::mpi()?;
/// let mut g = Tensor::ones(&[4], DType::Float32)?;
/// let work = world.all_reduce_async(&mut g, ReduceOp::Sum)?;
/// let v = g.to_vec::<f32>()?; // error: `g` is still borrowed by `work`
/// work.wait()?;
/// # Ok::<(), ctensor::Error>(())
/// ```
pub struct Work<'t> {
    raw: sys::ct_work,
    _tensor: PhantomData<&'t mut Tensor>,
}

// SAFETY: a work handle may be waited on and released from any thread; it is not shared (no Sync).
unsafe impl Send for Work<'_> {}

impl Drop for Work<'_> {
    fn drop(&mut self) {
        unsafe { sys::ct_work_release(self.raw) }
    }
}

impl Work<'_> {
    fn start<'t>(call: impl FnOnce(*mut sys::ct_work) -> sys::ct_status) -> Result<Work<'t>> {
        ensure_abi()?;
        let mut raw = std::ptr::null_mut();
        check(call(&mut raw))?;
        Ok(Work { raw, _tensor: PhantomData })
    }

    /// Waits for the collective (at most its group's timeout) and returns its result.
    pub fn wait(&self) -> Result<()> {
        check(unsafe { sys::ct_work_wait(self.raw) })
    }

    /// Whether the collective has finished (successfully or not; [`wait`](Work::wait) says which).
    pub fn is_completed(&self) -> Result<bool> {
        let mut done = 0;
        check(unsafe { sys::ct_work_is_completed(self.raw, &mut done) })?;
        Ok(done != 0)
    }
}
