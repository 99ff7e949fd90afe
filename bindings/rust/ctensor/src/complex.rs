//! complex64 / complex128 (issue 15): tensors from and to `[f32; 2]` / `[f64; 2]` (real, imag) pairs, parts as
//! views, `conj`, `angle`, `polar`, complex fills and scalars: thin wrappers over the C ABI (no num-complex crate).
use crate::error::{check, Result};
use crate::sys;
use crate::tensor::{out1, Tensor};
use crate::types::{DType, Device, Element};

impl Tensor {
    /// A complex tensor of `shape` from (real, imag) pairs: `[f32; 2]` gives complex64, `[f64; 2]` complex128.
    pub fn from_complex_pairs<T: Element>(pairs: &[[T; 2]], shape: &[i64]) -> Result<Tensor> {
        let flat: Vec<T> = pairs.iter().flat_map(|p| p.iter().copied()).collect();
        let mut pshape = shape.to_vec();
        pshape.push(2);
        Tensor::from_slice(&flat, &pshape)?.view_as_complex()
    }

    /// The elements of a complex tensor as (real, imag) pairs (`T` = f32 for complex64, f64 for complex128).
    pub fn to_complex_pairs<T: Element>(&self) -> Result<Vec<[T; 2]>> {
        let flat = self.view_as_real()?.to_vec::<T>()?;
        Ok(flat.chunks_exact(2).map(|c| [c[0], c[1]]).collect())
    }

    /// The one element as (real, imag) (a real dtype gives imag 0).
    pub fn item_complex(&self) -> Result<(f64, f64)> {
        let (mut re, mut im) = (0.0, 0.0);
        check(unsafe { sys::ct_tensor_item_complex(self.as_raw(), &mut re, &mut im) })?;
        Ok((re, im))
    }

    /// A complex64/complex128 tensor of `shape` filled with `re + i im`.
    pub fn full_complex(shape: &[i64], re: f64, im: f64, dtype: DType, device: Device) -> Result<Tensor> {
        out1(|o| unsafe {
            sys::ct_full_complex(shape.as_ptr(), shape.len() as i32, re, im, dtype.to_raw(), device.to_raw(), o)
        })
    }

    /// `real + i imag` (torch.complex): both float32 or both float64, broadcast.
    pub fn complex(real: &Tensor, imag: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_complex(real.as_raw(), imag.as_raw(), o) })
    }

    /// `abs * (cos(angle) + i sin(angle))`.
    pub fn polar(abs: &Tensor, angle: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_polar(abs.as_raw(), angle.as_raw(), o) })
    }

    /// The real part (a view of a complex tensor; a real tensor itself).
    pub fn real(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_real(self.as_raw(), o) })
    }

    /// The imaginary part as a view (an error for a real tensor).
    pub fn imag(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_imag(self.as_raw(), o) })
    }

    /// The `[..., 2]` float view of the (real, imag) pairs.
    pub fn view_as_real(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_view_as_real(self.as_raw(), o) })
    }

    /// The complex view of a float32/float64 `[..., 2]` tensor.
    pub fn view_as_complex(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_view_as_complex(self.as_raw(), o) })
    }

    /// The complex conjugate (a real tensor is returned as it is).
    pub fn conj(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_conj(self.as_raw(), o) })
    }

    /// The argument of each element (0 or pi for real tensors).
    pub fn angle(&self) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_angle(self.as_raw(), o) })
    }
}
