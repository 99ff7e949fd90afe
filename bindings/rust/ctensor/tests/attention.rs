// attention.rs - scaled_dot_product_attention against a naive softmax(q k^T / sqrt(E)) v written here (with a bool
// mask and causal), its gradients by central differences, MultiheadAttention / TransformerEncoder shapes, a training
// step whose loss falls, and the library's errors (heads not dividing the width, mismatched dims).
mod common;

use common::{assert_close, det, err_of, gradcheck, run, vals};
use ctensor::nn::Module;
use ctensor::optim::Sgd;
use ctensor::{
    DType, Error, FeedForwardActivation, MultiheadAttention, Tensor, TransformerEncoder, TransformerEncoderLayer,
};

/// softmax(q k^T * scale + mask) v for one [L, E] x [S, E] x [S, Ev] problem; keep[i][j] false masks.
fn naive(
    q: &[f64],
    k: &[f64],
    v: &[f64],
    dims: (usize, usize, usize, usize),
    keep: &dyn Fn(usize, usize) -> bool,
) -> Vec<f64> {
    let (l, s, e, ev) = dims;
    let scale = 1.0 / (e as f64).sqrt();
    let mut out = vec![0.0; l * ev];
    for i in 0..l {
        let scores: Vec<f64> = (0..s)
            .map(|j| {
                if keep(i, j) {
                    (0..e).map(|c| q[i * e + c] * k[j * e + c]).sum::<f64>() * scale
                } else {
                    f64::NEG_INFINITY
                }
            })
            .collect();
        let m = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = scores.iter().map(|x| (x - m).exp()).collect();
        let z: f64 = w.iter().sum();
        for c in 0..ev {
            out[i * ev + c] = (0..s).map(|j| w[j] / z * v[j * ev + c]).sum();
        }
    }
    out
}

#[test]
fn sdpa_matches_naive_with_mask_and_causal() {
    run(|| {
        let (l, s, e, ev) = (70usize, 140usize, 3usize, 2usize);
        let (q, k, v) =
            (det(&[l as i64, e as i64], 0.1), det(&[s as i64, e as i64], 0.2), det(&[s as i64, ev as i64], 0.3));
        let plain = q.scaled_dot_product_attention(&k, &v, None, 0.0, false, None, None)?;
        assert_close(&vals(&plain), &naive(&vals(&q), &vals(&k), &vals(&v), (l, s, e, ev), &|_, _| true), 1e-10, 1e-12);
        let causal = q.scaled_dot_product_attention(&k, &v, None, 0.0, true, None, None)?;
        assert_close(
            &vals(&causal),
            &naive(&vals(&q), &vals(&k), &vals(&v), (l, s, e, ev), &|i, j| j <= i),
            1e-10,
            1e-12,
        );
        let keep: Vec<bool> = (0..l * s).map(|x| x % 3 != 1).collect();
        let mask = Tensor::from_slice(&keep, &[l as i64, s as i64])?;
        let masked = q.scaled_dot_product_attention(&k, &v, Some(&mask), 0.0, false, Some(0.5), None)?;
        let scale_fix = 0.5 * (e as f64).sqrt(); // naive uses 1/sqrt(E): scale q instead
        let q2: Vec<f64> = vals(&q).iter().map(|x| x * scale_fix).collect();
        assert_close(
            &vals(&masked),
            &naive(&q2, &vals(&k), &vals(&v), (l, s, e, ev), &|i, j| keep[i * s + j]),
            1e-10,
            1e-12,
        );
        Ok(())
    });
}

#[test]
fn sdpa_gradients_match_finite_differences() {
    run(|| {
        let (q, k, v) = (det(&[2, 5, 3], 0.4), det(&[2, 7, 3], 0.5), det(&[2, 7, 2], 0.6));
        gradcheck(|x| x[0].scaled_dot_product_attention(&x[1], &x[2], None, 0.0, true, None, None), &[&q, &k, &v])
    });
}

#[test]
fn encoder_trains_and_mha_returns_weights() {
    run(|| {
        let mha = MultiheadAttention::new(8, 2, 0.0, true, DType::Float32)?;
        let x = Tensor::randn(&[3, 5, 8], DType::Float32, None)?;
        let (out, w) = mha.forward_qkv(&x, &x, &x, None, None, true)?;
        assert_eq!(out.shape(), vec![3, 5, 8]);
        let w = w.expect("weights");
        assert_eq!(w.shape(), vec![3, 5, 5]);
        assert_close(&vals(&w.sum(&[-1], false)?), &[1.0; 15], 1e-5, 1e-5);
        assert_eq!(mha.parameters().len(), 4);

        let layer =
            |_| TransformerEncoderLayer::new(8, 2, 16, 0.0, FeedForwardActivation::Gelu, true, true, DType::Float32);
        let enc = TransformerEncoder { layers: vec![layer(0)?, layer(1)?], norm: None };
        let target = Tensor::randn(&[3, 5, 8], DType::Float32, None)?;
        let mut opt = Sgd::new(0.05).build(&enc.parameters())?;
        let loss_of = |enc: &TransformerEncoder| -> ctensor::Result<Tensor> {
            let d = (enc.forward(&x)? - &target)?;
            (&d * &d)?.mean_all()
        };
        let first = loss_of(&enc)?.item()?;
        for _ in 0..20 {
            opt.zero_grad()?;
            loss_of(&enc)?.backward()?;
            opt.step()?;
        }
        assert!(loss_of(&enc)?.item()? < first * 0.9, "loss did not fall");
        Ok(())
    });
}

#[test]
fn bad_input_is_an_error() {
    run(|| {
        assert!(matches!(err_of(MultiheadAttention::new(10, 3, 0.0, false, DType::Float32)?.forward(
            &Tensor::zeros(&[2, 1, 10], DType::Float32)?)), Error::InvalidArgument(m) if m.contains("not divisible by num_heads 3")));
        let q = Tensor::zeros(&[2, 3, 4], DType::Float32)?;
        let k = Tensor::zeros(&[2, 5, 3], DType::Float32)?;
        let e = err_of(q.scaled_dot_product_attention(&k, &k, None, 0.0, false, None, None));
        assert!(matches!(&e, Error::Shape(m) if m.contains("scaled_dot_product_attention")), "{e}");
        Ok(())
    });
}
