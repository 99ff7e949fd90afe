// complex_scalars.rs - Rust complex numbers beside tensors (issue 15): `t * Complex::new(re, im)` and the other
// operators on either side, their result dtypes as torch 1.13 gives them for a Python complex (float32 / int / bool
// / float16 -> complex64, float64 -> complex128, complex keeps its dtype), values computed by hand or printed by
// torch, == / != and the refusal of ordering, and the gradient of a real tensor through a complex product.
mod common;

use common::{err_of, run};
use ctensor::{Complex, DType, Error, Tensor};

#[test]
fn result_dtypes_follow_torch() {
    run(|| {
        let s = Complex::new(0.5, 2.0);
        let rows = [
            (DType::Bool, DType::Complex64),
            (DType::UInt8, DType::Complex64),
            (DType::Int32, DType::Complex64),
            (DType::Int64, DType::Complex64),
            (DType::Float16, DType::Complex64), // torch: complex32, which ctensor lacks (docs/dtypes.md)
            (DType::BFloat16, DType::Complex64),
            (DType::Float32, DType::Complex64),
            (DType::Float64, DType::Complex128),
            (DType::Complex64, DType::Complex64),
            (DType::Complex128, DType::Complex128),
        ];
        for (input, want) in rows {
            let x = Tensor::from_slice(&[1.0f64, 1.0], &[2])?.to_dtype(input)?;
            let y = (&x * s)?;
            assert_eq!(y.dtype(), want, "{input:?} * complex");
            assert_eq!(y.to_dtype(DType::Complex128)?.to_complex_pairs::<f64>()?, vec![[0.5, 2.0]; 2]);
            let z = (s + &x)?;
            assert_eq!(z.dtype(), want, "complex + {input:?}");
            assert_eq!(z.to_dtype(DType::Complex128)?.to_complex_pairs::<f64>()?, vec![[1.5, 2.0]; 2]);
        }
        Ok(())
    });
}

#[test]
fn values_on_either_side() {
    run(|| {
        // torch 1.13, x = [1., -2.] (float64), s = 0.5+2j
        let x = Tensor::from_slice(&[1.0f64, -2.0], &[2])?;
        let s = Complex::new(0.5, 2.0);
        assert_eq!((&x * s)?.to_complex_pairs::<f64>()?, vec![[0.5, 2.0], [-1.0, -4.0]]);
        assert_eq!((s / &x)?.to_complex_pairs::<f64>()?, vec![[0.5, 2.0], [-0.25, -1.0]]);
        assert_eq!((&x - s)?.to_complex_pairs::<f64>()?, vec![[0.5, -2.0], [-2.5, -2.0]]);
        assert_eq!((s - &x)?.to_complex_pairs::<f64>()?, vec![[-0.5, 2.0], [2.5, 2.0]]);
        let p = x.pow_complex(s)?.to_complex_pairs::<f64>()?;
        assert!((p[1][0] + 0.0025961397312833884).abs() < 1e-12 && (p[1][1] - 0.0004845030526940058).abs() < 1e-12);
        // a Result on the left chains; a complex tensor keeps its dtype
        let z = Tensor::from_complex_pairs(&[[1.0f32, 1.0]], &[1])?;
        let w = ((&z * Complex::new(0.0, 1.0)) + Complex::new(1.0, 0.0))?; // (1+i) i + 1 = i
        assert_eq!(w.dtype(), DType::Complex64);
        assert_eq!(w.to_complex_pairs::<f32>()?, vec![[0.0, 1.0]]);
        Ok(())
    });
}

#[test]
fn equality_works_ordering_refuses() {
    run(|| {
        let x = Tensor::from_slice(&[1i32, 2], &[2])?;
        assert_eq!(x.eq_complex(Complex::new(1.0, 0.0))?.to_vec::<bool>()?, vec![true, false]);
        assert_eq!(x.ne_complex(Complex::new(0.0, 1.0))?.to_vec::<bool>()?, vec![true, true]);
        let i = Tensor::wrapped_scalar_complex(0.0, 1.0)?;
        match err_of(x.lt(&i)) {
            Error::NotSupported(m) => assert!(m.contains("complex64"), "{m}"),
            e => panic!("expected NotSupported, got {e:?}"),
        }
        match err_of(Tensor::from_slice(&[true], &[1])? - Complex::new(1.0, 0.0)) {
            Error::DType(m) => assert!(m.contains("bool"), "{m}"), // torch refuses bool - x too
            e => panic!("expected a dtype error, got {e:?}"),
        }
        Ok(())
    });
}

#[test]
fn gradient_of_a_real_tensor() {
    run(|| {
        let x = Tensor::from_slice(&[1.0f64, -2.0], &[2])?.requires_grad_(true)?;
        let loss = (Complex::new(0.5, 2.0) / &x)?.imag()?.sum(&[], false)?;
        loss.backward()?;
        // torch 1.13: d imag(s / x) / dx = -2 / x^2
        assert_eq!(x.grad().expect("grad").to_vec::<f64>()?, vec![-2.0, -0.5]);
        Ok(())
    });
}
