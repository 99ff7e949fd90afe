//! torch.linalg through the Rust methods: values against closed forms and reconstructions, batched and empty
//! inputs, a gradient against the closed form, the torch aliases and the error variants.
use ctensor::{Error, LstsqDriver, QrMode, Tensor, Uplo};

fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= tol * (1.0 + y.abs()), "{a:?} vs {b:?}");
    }
}

fn vals(t: &Tensor) -> Vec<f64> {
    t.to_vec::<f64>().unwrap()
}

#[test]
fn inverse_determinant_and_solve() -> ctensor::Result<()> {
    let a = Tensor::from_slice(&[4.0f64, 7.0, 2.0, 6.0], &[2, 2])?;
    close(&vals(&a.linalg_inv()?), &[0.6, -0.7, -0.2, 0.4], 1e-12);
    close(&vals(&a.inverse()?), &[0.6, -0.7, -0.2, 0.4], 1e-12);
    close(&vals(&a.linalg_det()?), &[10.0], 1e-12);
    close(&vals(&a.det()?), &[10.0], 1e-12);
    let (sign, logabs) = a.linalg_slogdet()?;
    close(&vals(&sign), &[1.0], 0.0);
    close(&vals(&logabs), &[10f64.ln()], 1e-12);
    let neg = Tensor::from_slice(&[0.0f64, 1.0, 1.0, 0.0], &[2, 2])?;
    assert!(vals(&neg.logdet()?)[0].is_nan()); // det -1
    let b = Tensor::from_slice(&[1.0f64, 2.0], &[2])?;
    let x = a.linalg_solve(&b)?;
    close(&vals(&a.matmul(&x)?), &[1.0, 2.0], 1e-12);
    // a batch of two, the second singular: the error names it
    let batch = Tensor::from_slice(&[1.0f64, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 4.0], &[2, 2, 2])?;
    match batch.linalg_inv() {
        Err(Error::InvalidArgument(m)) => assert!(m.contains("(Batch element 1)"), "{m}"),
        other => panic!("expected InvalidArgument, got {other:?}"),
    }
    close(&vals(&batch.linalg_det()?), &[1.0, 0.0], 1e-12);
    let empty = Tensor::from_slice::<f64>(&[], &[0, 3, 3])?;
    assert_eq!(empty.linalg_inv()?.size(), vec![0, 3, 3]);
    Ok(())
}

#[test]
fn factorisations_reconstruct() -> ctensor::Result<()> {
    let a = Tensor::from_slice(&[4.0f64, 2.0, 2.0, 3.0], &[2, 2])?;
    let l = a.linalg_cholesky(false)?;
    close(&vals(&l.matmul(&l.transpose(0, 1)?)?), &vals(&a), 1e-12);
    close(&vals(&l), &[2.0, 0.0, 1.0, 2f64.sqrt()], 1e-12);
    let u = a.linalg_cholesky(true)?;
    close(&vals(&u), &[2.0, 1.0, 0.0, 2f64.sqrt()], 1e-12);
    let (w, v) = a.linalg_eigh(Uplo::Lower)?;
    close(&vals(&w), &[(7.0 - 17f64.sqrt()) / 2.0, (7.0 + 17f64.sqrt()) / 2.0], 1e-12);
    close(&vals(&a.matmul(&v)?), &vals(&v.mul(&w.unsqueeze(0)?)?), 1e-12);
    close(&vals(&a.linalg_eigvalsh(Uplo::Upper)?), &vals(&w), 1e-12);
    let g = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[3, 2])?;
    let (q, r) = g.linalg_qr(QrMode::Reduced)?;
    assert_eq!((q.size(), r.size()), (vec![3, 2], vec![2, 2]));
    close(&vals(&q.matmul(&r)?), &vals(&g), 1e-12);
    let (q, r) = g.linalg_qr(QrMode::Complete)?;
    assert_eq!((q.size(), r.size()), (vec![3, 3], vec![3, 2]));
    let (q, _) = g.linalg_qr(QrMode::R)?;
    assert_eq!(q.size(), vec![0]);
    let (u, s, vh) = g.linalg_svd(false)?;
    close(&vals(&u.mul(&s.unsqueeze(0)?)?.matmul(&vh)?), &vals(&g), 1e-12);
    close(&vals(&g.linalg_svdvals()?), &vals(&s), 1e-12);
    let (u, _, vh) = g.linalg_svd(true)?;
    assert_eq!((u.size(), vh.size()), (vec![3, 3], vec![2, 2]));
    let tri = Tensor::from_slice(&[2.0f64, 0.0, 1.0, 4.0], &[2, 2])?;
    let rhs = Tensor::from_slice(&[2.0f64, 9.0], &[2, 1])?;
    close(&vals(&tri.linalg_solve_triangular(&rhs, false, true, false)?), &[1.0, 2.0], 1e-12);
    Ok(())
}

#[test]
fn gradient_of_logabsdet_is_the_inverse_transpose() -> ctensor::Result<()> {
    let a = Tensor::from_slice(&[4.0f64, 7.0, 2.0, 6.0], &[2, 2])?.requires_grad_(true)?;
    let (_, logabs) = a.linalg_slogdet()?;
    logabs.backward()?;
    close(&vals(&a.grad().unwrap()), &[0.6, -0.2, -0.7, 0.4], 1e-12); // A^-T
    Ok(())
}

#[test]
fn errors_map_to_variants() -> ctensor::Result<()> {
    let rect = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    assert!(matches!(rect.linalg_det(), Err(Error::Shape(_))));
    let ints = Tensor::from_slice(&[1i64, 0, 0, 1], &[2, 2])?;
    assert!(matches!(ints.linalg_inv(), Err(Error::DType(_))));
    let not_pd = Tensor::from_slice(&[1.0f64, 2.0, 2.0, 1.0], &[2, 2])?;
    match not_pd.linalg_cholesky(false) {
        Err(Error::InvalidArgument(m)) => assert!(m.contains("not positive-definite"), "{m}"),
        other => panic!("expected InvalidArgument, got {other:?}"),
    }
    Ok(())
}

#[test]
fn composites() -> ctensor::Result<()> {
    let a = Tensor::from_slice(&[2.0f64, 1.0, 1.0, 3.0], &[2, 2])?;
    close(&vals(&a.linalg_matrix_power(2)?), &[5.0, 5.0, 5.0, 10.0], 1e-12);
    close(&vals(&a.matrix_power(-1)?), &vals(&a.linalg_inv()?), 1e-12);
    close(&vals(&a.linalg_matrix_power(0)?), &[1.0, 0.0, 0.0, 1.0], 0.0);
    let x = Tensor::from_slice(&[1.0f64, 0.0, 0.0], &[3])?;
    let y = Tensor::from_slice(&[0.0f64, 1.0, 0.0], &[3])?;
    close(&vals(&x.linalg_cross(&y, -1)?), &[0.0, 0.0, 1.0], 0.0);
    let v = Tensor::from_slice(&[3.0f64, -4.0], &[2])?;
    close(&vals(&v.linalg_vector_norm(2.0, &[], false)?), &[5.0], 1e-12);
    close(&vals(&v.linalg_vector_norm(f64::INFINITY, &[0], false)?), &[4.0], 0.0);
    close(&vals(&a.linalg_matrix_norm("fro", -2, -1, false)?), &[15f64.sqrt()], 1e-12);
    close(&vals(&a.linalg_matrix_norm("1", -2, -1, false)?), &[4.0], 1e-12);
    close(&vals(&a.linalg_matrix_norm("inf", -2, -1, false)?), &[4.0], 1e-12);
    assert!(matches!(a.linalg_matrix_norm("3", -2, -1, false), Err(Error::InvalidArgument(_))));
    close(&vals(&a.linalg_pinv(None, None)?), &vals(&a.linalg_inv()?), 1e-12);
    close(&vals(&a.pinverse()?), &vals(&a.linalg_inv()?), 1e-12);
    let low = Tensor::from_slice(&[1.0f64, 2.0, 2.0, 4.0], &[2, 2])?;
    assert_eq!(low.linalg_matrix_rank(None, None)?.to_vec::<i64>()?, vec![1]);
    let tall = Tensor::from_slice(&[1.0f64, 0.0, 0.0, 1.0, 1.0, 1.0], &[3, 2])?;
    let b = Tensor::from_slice(&[1.0f64, 2.0, 4.0], &[3, 1])?;
    close(&vals(&tall.linalg_lstsq(&b)?), &[4.0 / 3.0, 7.0 / 3.0], 1e-12); // the normal equations' solution
    Ok(())
}

#[test]
fn least_squares_drivers() -> ctensor::Result<()> {
    let tall = Tensor::from_slice(&[1.0f64, 0.0, 0.0, 1.0, 1.0, 1.0], &[3, 2])?;
    let b = Tensor::from_slice(&[1.0f64, 2.0, 4.0], &[3, 1])?;
    for d in [LstsqDriver::Gelsy, LstsqDriver::Gels, LstsqDriver::Gelsd, LstsqDriver::Gelss] {
        let r = tall.linalg_lstsq_ex(&b, None, d)?;
        close(&vals(&r.solution), &[4.0 / 3.0, 7.0 / 3.0], 1e-12);
        if d == LstsqDriver::Gelsy {
            assert_eq!(r.residuals.size(), vec![0]);
        } else {
            close(&vals(&r.residuals), &[1.0 / 3.0], 1e-12); // ||A x - b||^2
        }
        if matches!(d, LstsqDriver::Gelsd | LstsqDriver::Gelss) {
            close(&vals(&r.singular_values), &[3f64.sqrt(), 1.0], 1e-12);
        }
    }
    // rank 1: the minimum-norm solution pinv(A) b = 17/70 [1, 2], for a vector b too
    let low = Tensor::from_slice(&[1.0f64, 2.0, 2.0, 4.0, 3.0, 6.0], &[3, 2])?;
    let v = Tensor::from_slice(&[1.0f64, 2.0, 4.0], &[3])?;
    let r = low.linalg_lstsq_ex(&v, None, LstsqDriver::Gelsy)?;
    assert_eq!(r.solution.size(), vec![2]);
    close(&vals(&r.solution), &[17.0 / 70.0, 34.0 / 70.0], 1e-12);
    assert_eq!(r.rank.to_vec::<i64>()?, vec![1]);
    close(&vals(&low.linalg_lstsq(&b)?), &[17.0 / 70.0, 34.0 / 70.0], 1e-12);
    let big_rcond = Tensor::from_slice(&[1.0f64, 0.0, 0.0, 1e-3], &[2, 2])?;
    let ones = Tensor::from_slice(&[1.0f64, 1.0], &[2, 1])?;
    let r = big_rcond.linalg_lstsq_ex(&ones, Some(1e-2), LstsqDriver::Gelsd)?;
    assert_eq!(r.rank.to_vec::<i64>()?, vec![1]);
    let zero_col = Tensor::from_slice(&[1.0f64, 0.0, 0.0, 0.0, 2.0, 0.0], &[3, 2])?;
    assert!(matches!(zero_col.linalg_lstsq_ex(&b, None, LstsqDriver::Gels), Err(Error::InvalidArgument(m)) if m.contains("full rank")));
    assert!(matches!(tall.linalg_lstsq_ex(&ones, None, LstsqDriver::Gelsy), Err(Error::Shape(_))));
    // the gradient is that of pinv(A) @ b: d/db sum(x) = pinv(A)^T 1 = [3, 6, 9] / 70 for the rank-1 A
    let mut bg = Tensor::from_slice(&[1.0f64, 2.0, 4.0], &[3, 1])?;
    bg.set_requires_grad(true)?;
    low.linalg_lstsq_ex(&bg, None, LstsqDriver::Gelsd)?.solution.sum(&[], false)?.backward()?;
    close(&vals(&bg.grad().unwrap()), &[3.0 / 70.0, 6.0 / 70.0, 9.0 / 70.0], 1e-12);
    Ok(())
}

#[test]
fn complex_least_squares() -> ctensor::Result<()> {
    // A = (1 + i) A0, B = (1 + 2i) b0 for the real problem above: x = x0 (1 + 2i) / (1 + i) = x0 (3 + i) / 2, the
    // residuals |1 + 2i|^2 / 3 (real), the singular values |1 + i| {sqrt 3, 1} (real)
    let a0 = Tensor::from_slice(&[1.0f64, 0.0, 0.0, 1.0, 1.0, 1.0], &[3, 2])?;
    let b0 = Tensor::from_slice(&[1.0f64, 2.0, 4.0], &[3, 1])?;
    let b2 = Tensor::from_slice(&[2.0f64, 4.0, 8.0], &[3, 1])?;
    let (a, b) = (Tensor::complex(&a0, &a0)?, Tensor::complex(&b0, &b2)?);
    for d in [LstsqDriver::Gelsy, LstsqDriver::Gels, LstsqDriver::Gelsd, LstsqDriver::Gelss] {
        let r = a.linalg_lstsq_ex(&b, None, d)?;
        assert_eq!(r.solution.dtype(), ctensor::DType::Complex128);
        close(&vals(&r.solution.view_as_real()?), &[2.0, 2.0 / 3.0, 3.5, 7.0 / 6.0], 1e-12);
        assert_eq!(r.residuals.dtype(), ctensor::DType::Float64);
        if d != LstsqDriver::Gelsy {
            close(&vals(&r.residuals), &[5.0 / 3.0], 1e-12);
        }
        if matches!(d, LstsqDriver::Gelsd | LstsqDriver::Gelss) {
            assert_eq!(r.singular_values.dtype(), ctensor::DType::Float64);
            close(&vals(&r.singular_values), &[6f64.sqrt(), 2f64.sqrt()], 1e-12);
        }
    }
    assert!(matches!(a.linalg_lstsq_ex(&b0, None, LstsqDriver::Gelsy), Err(Error::DType(m)) if m.contains("same dtype")));
    Ok(())
}

#[test]
fn general_eigenproblem() -> ctensor::Result<()> {
    // a rotation by 90 degrees scaled by 2: eigenvalues +-2i, eigenvectors (i, 1) / sqrt(2) and (-i, 1) / sqrt(2), as LAPACK geev (and torch) give them
    let rot = Tensor::from_slice(&[0.0f64, -2.0, 2.0, 0.0], &[2, 2])?;
    let (w, v) = rot.linalg_eig()?;
    assert_eq!(w.dtype(), ctensor::DType::Complex128);
    close(&vals(&w.view_as_real()?), &[0.0, 2.0, 0.0, -2.0], 1e-12);
    let h = 0.5f64.sqrt();
    close(&vals(&v.view_as_real()?), &[0.0, h, 0.0, -h, h, 0.0, h, 0.0], 1e-12);
    close(&vals(&rot.linalg_eigvals()?.view_as_real()?), &[0.0, 2.0, 0.0, -2.0], 1e-12);
    let rect = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    assert!(matches!(rect.linalg_eig(), Err(Error::Shape(_))));
    let nan = Tensor::from_slice(&[1.0f64, f64::NAN, 0.0, 1.0], &[2, 2])?;
    assert!(matches!(nan.linalg_eigvals(), Err(Error::InvalidArgument(_))));
    Ok(())
}
