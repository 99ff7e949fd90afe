//! Embedding options and EmbeddingBag through the Rust API: bag values against hand sums/means/maxes, the
//! padding row's zero gradient, frequency scaling, max_norm renormalisation, the modules and the error variants.
use ctensor::nn::{Embedding, EmbeddingBag, Module};
use ctensor::{EmbeddingBagMode, EmbeddingBagOptions, Error, Tensor};

fn vals(t: &Tensor) -> Vec<f64> {
    t.to_vec::<f64>().unwrap()
}

fn weight() -> ctensor::Result<Tensor> {
    let w: Vec<f64> = (0..12).map(|i| i as f64 - 4.0).collect(); // rows [-4 -3 -2] [-1 0 1] [2 3 4] [5 6 7]
    Tensor::from_slice(&w, &[4, 3])?.requires_grad_(true)
}

#[test]
fn bags_sum_mean_max_and_weights() -> ctensor::Result<()> {
    let w = weight()?;
    let idx = Tensor::from_slice(&[0i64, 2, 3, 1], &[4])?;
    let off = Tensor::from_slice(&[0i64, 2], &[2])?; // bags {0, 2} and {3, 1}
    let opts = |mode| EmbeddingBagOptions { mode, ..Default::default() };
    assert_eq!(vals(&w.embedding_bag(&idx, Some(&off), None, opts(EmbeddingBagMode::Sum))?), [-2.0, 0.0, 2.0, 4.0, 6.0, 8.0]);
    assert_eq!(vals(&w.embedding_bag(&idx, Some(&off), None, opts(EmbeddingBagMode::Mean))?), [-1.0, 0.0, 1.0, 2.0, 3.0, 4.0]);
    assert_eq!(vals(&w.embedding_bag(&idx, Some(&off), None, opts(EmbeddingBagMode::Max))?), [2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let psw = Tensor::from_slice(&[1.0f64, 0.5, 2.0, 0.0], &[4])?;
    assert_eq!(vals(&w.embedding_bag(&idx, Some(&off), Some(&psw), opts(EmbeddingBagMode::Sum))?), [-3.0, -1.5, 0.0, 10.0, 12.0, 14.0]);
    let padded = EmbeddingBagOptions { mode: EmbeddingBagMode::Sum, padding_idx: Some(-1), ..Default::default() };
    let out = w.embedding_bag(&idx, Some(&off), None, padded)?; // row 3 left out
    assert_eq!(vals(&out), [-2.0, 0.0, 2.0, -1.0, 0.0, 1.0]);
    out.sum_all()?.backward()?;
    assert_eq!(vals(&w.grad().unwrap()), [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
    Ok(())
}

#[test]
fn embedding_padding_frequency_and_renorm() -> ctensor::Result<()> {
    let w = weight()?;
    let idx = Tensor::from_slice(&[1i64, 1, 2, 0], &[4])?;
    w.embedding_ex(&idx, Some(0), true)?.sum_all()?.backward()?;
    // row 0 padded, row 1 twice (scaled by 1/2), row 2 once
    assert_eq!(vals(&w.grad().unwrap()), [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
    let v = Tensor::from_slice(&[3.0f64, 4.0, 0.0, 0.3, 0.4, 0.0], &[2, 3])?;
    v.embedding_renorm_(&Tensor::from_slice(&[0i64, 1], &[2])?, 1.0, 2.0)?;
    let got = vals(&v);
    assert!((got[0] - 3.0 / (5.0 + 1e-7)).abs() < 1e-12 && got[3] == 0.3);
    Ok(())
}

#[test]
fn modules_and_errors() -> ctensor::Result<()> {
    let mut e = Embedding::new(5, 2, Some(1), None)?;
    assert_eq!(vals(&e.weight.select(0, 1)?.to_dtype(ctensor::DType::Float64)?), [0.0, 0.0]);
    e.max_norm = Some(0.5);
    let out = e.forward(&Tensor::from_slice(&[0i64, 2, 4], &[3])?)?;
    assert_eq!(out.shape(), vec![3, 2]);
    let bag = EmbeddingBag::new(5, 2, EmbeddingBagOptions::default(), None)?;
    assert_eq!(bag.forward(&Tensor::from_slice(&[0i64, 1, 2, 3], &[2, 2])?)?.shape(), vec![2, 2]);
    let w = weight()?;
    let idx = Tensor::from_slice(&[0i64, 9], &[2])?;
    let off = Tensor::from_slice(&[0i64], &[1])?;
    assert!(matches!(w.embedding_bag(&idx, Some(&off), None, Default::default()), Err(Error::Index(_))));
    let ok_idx = Tensor::from_slice(&[0i64, 1], &[2])?;
    let bad_off = Tensor::from_slice(&[1i64], &[1])?;
    assert!(matches!(w.embedding_bag(&ok_idx, Some(&bad_off), None, Default::default()), Err(Error::InvalidArgument(_))));
    assert!(matches!(w.embedding_bag(&ok_idx, None, None, Default::default()), Err(Error::InvalidArgument(_))));
    Ok(())
}
