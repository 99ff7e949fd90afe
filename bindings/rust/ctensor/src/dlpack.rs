//! DLPack zero-copy exchange as raw pointers (`DLManagedTensor` legacy and `DLManagedTensorVersioned`);
//! exports are detached from the autograd graph. Use a DLPack-aware crate or C code on the other side.
use ctensor_sys as sys;
pub use ctensor_sys::{DLManagedTensor, DLManagedTensorVersioned};

use crate::error::{check, Result};
use crate::tensor::{out1, Tensor};

impl Tensor {
    /// Exports as a legacy `DLManagedTensor` sharing this tensor's memory. The consumer owns the result
    /// and must call its `deleter` exactly once (from any thread); until then the memory stays alive.
    /// Leaking the pointer leaks the tensor but is not unsound.
    pub fn to_dlpack(&self) -> Result<*mut DLManagedTensor> {
        let mut out = std::ptr::null_mut();
        check(unsafe { sys::ct_to_dlpack(self.as_raw(), &mut out) })?;
        Ok(out)
    }

    /// Exports as a DLPack 1.x `DLManagedTensorVersioned` (same ownership rule as [`Tensor::to_dlpack`]).
    pub fn to_dlpack_versioned(&self) -> Result<*mut DLManagedTensorVersioned> {
        let mut out = std::ptr::null_mut();
        check(unsafe { sys::ct_to_dlpack_versioned(self.as_raw(), &mut out) })?;
        Ok(out)
    }

    /// Imports a legacy `DLManagedTensor` without copying.
    ///
    /// # Safety
    /// `managed` must point to a valid `DLManagedTensor` whose data stays valid until its deleter runs,
    /// and must not be used by the caller afterwards on success: ctensor then owns it and calls the
    /// deleter once when the last view of the memory goes (from any thread). On failure the caller
    /// keeps ownership.
    pub unsafe fn from_dlpack(managed: *mut DLManagedTensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_from_dlpack(managed, o) })
    }

    /// Imports a DLPack 1.x `DLManagedTensorVersioned` (major version 1; read-only tensors are refused).
    ///
    /// # Safety
    /// As for [`Tensor::from_dlpack`].
    pub unsafe fn from_dlpack_versioned(managed: *mut DLManagedTensorVersioned) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_from_dlpack_versioned(managed, o) })
    }
}
