// linalg_complex.rs - torch.linalg on complex64 / complex128 from Rust (issue 15): det, inv and eigvalsh of small
// matrices against closed forms; a Hermitian matrix's eigenvalues come back real.
mod common;

use common::run;
use ctensor::{DType, Tensor, Uplo};

#[test]
fn complex_det_inv_eigvalsh() {
    run(|| {
        // A = [[2, i], [0, 1 + i]]: det 2 + 2i, A^-1 = [[0.5, -0.25 - 0.25i], [0, 0.5 - 0.5i]]
        let a = Tensor::from_complex_pairs(&[[2.0f64, 0.0], [0.0, 1.0], [0.0, 0.0], [1.0, 1.0]], &[2, 2])?;
        assert_eq!(a.dtype(), DType::Complex128);
        let d = a.linalg_det()?.to_complex_pairs::<f64>()?;
        assert!((d[0][0] - 2.0).abs() < 1e-12 && (d[0][1] - 2.0).abs() < 1e-12);
        let inv = a.linalg_inv()?.to_complex_pairs::<f64>()?;
        let want = [[0.5, 0.0], [-0.25, -0.25], [0.0, 0.0], [0.5, -0.5]];
        for (g, w) in inv.iter().zip(want.iter()) {
            assert!((g[0] - w[0]).abs() < 1e-12 && (g[1] - w[1]).abs() < 1e-12, "{:?} vs {:?}", g, w);
        }
        // Hermitian [[2, i], [-i, 2]] in complex64: eigenvalues 1 and 3, float32
        let h = Tensor::from_complex_pairs(&[[2.0f32, 0.0], [0.0, 1.0], [0.0, -1.0], [2.0, 0.0]], &[2, 2])?;
        let w = h.linalg_eigvalsh(Uplo::Lower)?;
        assert_eq!(w.dtype(), DType::Float32);
        let w = w.to_vec::<f32>()?;
        assert!((w[0] - 1.0).abs() < 1e-5 && (w[1] - 3.0).abs() < 1e-5, "{:?}", w);
        Ok(())
    });
}
