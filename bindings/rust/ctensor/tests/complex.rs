// complex.rs - complex64 / complex128 from Rust: pairs in and out, parts, conj, abs, angle, item, arithmetic and
// the gradient of a real loss of a complex product (closed forms: d|z w|/dz = w * conj(z w) / |z w| ... ).
mod common;

use common::run;
use ctensor::{DType, Device, Tensor};

#[test]
fn complex_pairs_parts_and_arithmetic() {
    run(|| {
        let z = Tensor::from_complex_pairs(&[[3.0f32, 4.0], [-1.0, 2.0]], &[2])?;
        assert_eq!(z.dtype(), DType::Complex64);
        assert!(z.dtype().is_complex());
        assert_eq!(z.real()?.to_vec::<f32>()?, vec![3.0, -1.0]);
        assert_eq!(z.imag()?.to_vec::<f32>()?, vec![4.0, 2.0]);
        assert_eq!(z.conj()?.to_complex_pairs::<f32>()?, vec![[3.0, -4.0], [-1.0, -2.0]]);
        assert_eq!(z.abs()?.to_vec::<f32>()?[0], 5.0);
        let p = (&z * &z)?;  // (3+4i)^2 = -7+24i, (-1+2i)^2 = -3-4i
        assert_eq!(p.to_complex_pairs::<f32>()?, vec![[-7.0, 24.0], [-3.0, -4.0]]);
        let w = Tensor::full_complex(&[], 0.5, -2.0, DType::Complex128, Device::Cpu)?;
        assert_eq!(w.item_complex()?, (0.5, -2.0));
        assert!(w.item().is_err());  // no silent real part
        assert_eq!(DType::Complex128.size(), 16);
        Ok(())
    });
}
