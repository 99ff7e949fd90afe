//! torch's type promotion queries (issue 15): `DType::promote` (torch.promote_types), `DType::can_cast`
//! (torch.can_cast) and `Tensor::result_type` (torch.result_type). The rules live in the core; nothing here keeps
//! a copy of them.
use crate::error::{check, Result};
use crate::sys;
use crate::tensor::Tensor;
use crate::types::DType;

impl DType {
    /// The dtype two tensors of dtypes `self` and `other` promote to (`Float16` with `BFloat16` gives `Float32`,
    /// `Int8` with `UInt8` gives `Int16`, ...).
    pub fn promote(self, other: DType) -> DType {
        let mut out = sys::CT_FLOAT32;
        check(unsafe { sys::ct_promote_types(self.to_raw(), other.to_raw(), &mut out) })
            .and_then(|_| DType::from_raw(out))
            .expect("the library promotes every pair of its dtypes")
    }

    /// Whether an op's result of dtype `self` may be stored in a tensor of dtype `to`: never to a lower category
    /// (bool < integer < floating < complex); within one any cast is allowed.
    pub fn can_cast(self, to: DType) -> bool {
        let mut out = 0i32;
        check(unsafe { sys::ct_can_cast(self.to_raw(), to.to_raw(), &mut out) })
            .expect("the library answers for every pair of its dtypes");
        out != 0
    }
}

impl Tensor {
    /// The dtype of an elementwise op of `self` and `other` (torch.result_type): a 0-d tensor or a wrapped scalar
    /// only promotes when it is of a higher category.
    pub fn result_type(&self, other: &Tensor) -> Result<DType> {
        let mut out = sys::CT_FLOAT32;
        check(unsafe { sys::ct_result_type(self.as_raw(), other.as_raw(), &mut out) })?;
        DType::from_raw(out)
    }
}
