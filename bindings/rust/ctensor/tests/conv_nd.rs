// conv_nd.rs - N-d convolution (issue 14): conv1d / conv3d / conv_transpose values against hand-computed sums,
// finite-difference gradients, the layers' shapes and PyTorch init bound, and the errors.
mod common;

use common::{det, gradcheck, run, vals};
use ctensor::nn::{Conv1d, Conv3d, ConvOptions, ConvTranspose2d, Module};
use ctensor::{Error, Tensor};

fn t64(v: &[f64], shape: &[i64]) -> Tensor {
    Tensor::from_slice(v, shape).unwrap()
}

#[test]
fn conv_nd_values() {
    run(|| {
        // [1, 4] * [1, 1] kernel [1, 2] with padding 1: sums of neighbours plus bias
        let x = t64(&[1.0, 2.0, 3.0, 4.0], &[1, 1, 4]);
        let w = t64(&[1.0, 10.0], &[1, 1, 2]);
        let y = x.conv1d(&w, Some(&t64(&[0.5], &[1])), 1, 1, 1, 1)?;
        assert_eq!((y.size(), vals(&y)), (vec![1, 1, 5], vec![10.5, 21.5, 32.5, 43.5, 4.5]));
        // transposed with stride 2 scatters each input times the kernel: [1, 10, 2, 20, 3, 30, 4, 40]
        let o = ConvOptions { stride: [2], ..Default::default() };
        let t = x.conv_transpose1d(&w, None, &o)?;
        assert_eq!(vals(&t), vec![1.0, 10.0, 2.0, 20.0, 3.0, 30.0, 4.0, 40.0]);
        // a 2x2x2 box filter over a 2x2x2 cube of ones with padding 0 sums all 8
        let cube = Tensor::from_slice(&[1.0f64; 8], &[1, 1, 2, 2, 2])?;
        let box3 = Tensor::from_slice(&[1.0f64; 8], &[1, 1, 2, 2, 2])?;
        assert_eq!(vals(&cube.conv3d(&box3, None, [1, 1, 1], [0, 0, 0], [1, 1, 1], 1)?), vec![8.0]);
        Ok(())
    })
}

#[test]
fn conv_nd_gradients() {
    run(|| {
        gradcheck(
            |t| t[0].conv1d(&t[1], Some(&t[2]), 2, 1, 2, 2),
            &[&det(&[1, 4, 7], 0.3), &det(&[2, 2, 2], 0.5), &det(&[2], 0.6)],
        )?;
        gradcheck(
            |t| t[0].conv3d(&t[1], Some(&t[2]), [1, 2, 1], [1, 0, 1], [1, 1, 2], 1),
            &[&det(&[1, 2, 3, 4, 4], 0.2), &det(&[2, 2, 2, 2, 2], 0.4), &det(&[2], 0.7)],
        )?;
        let o = ConvOptions { stride: [2, 1], padding: [1, 0], dilation: [1, 2], output_padding: [1, 1], groups: 2 };
        gradcheck(
            |t| t[0].conv_transpose2d(&t[1], Some(&t[2]), &o),
            &[&det(&[1, 4, 3, 3], 0.1), &det(&[4, 1, 3, 2], 0.8), &det(&[2], 0.9)],
        )?;
        Ok(())
    })
}

#[test]
fn conv_nd_layers_and_errors() {
    run(|| {
        let c1 = Conv1d::new(4, 6, [3], ConvOptions { groups: 2, ..Default::default() }, true, None)?;
        assert_eq!(c1.weight.size(), vec![6, 2, 3]);
        let bound = 1.0 / 6f64.sqrt();
        assert!(vals(&c1.weight.to_dtype(ctensor::DType::Float64)?).iter().all(|v| v.abs() <= bound));
        let y = c1.forward(&Tensor::ones(&[2, 4, 9], ctensor::DType::Float32)?)?;
        assert_eq!(y.size(), vec![2, 6, 7]);
        let c3 = Conv3d::new(2, 3, [3, 3, 3], ConvOptions { padding: [1; 3], ..Default::default() }, false, None)?;
        assert_eq!(c3.forward(&Tensor::ones(&[1, 2, 4, 5, 6], ctensor::DType::Float32)?)?.size(), vec![1, 3, 4, 5, 6]);
        let o = ConvOptions { stride: [2, 2], output_padding: [1, 1], ..Default::default() };
        let ct2 = ConvTranspose2d::new(3, 5, [3, 3], o, true, None)?;
        assert_eq!(ct2.weight.size(), vec![3, 5, 3, 3]);
        assert_eq!(ct2.forward(&Tensor::ones(&[1, 3, 4, 4], ctensor::DType::Float32)?)?.size(), vec![1, 5, 10, 10]);
        assert_eq!(ct2.parameters().len(), 2);
        // errors: channels not divisible by groups, output_padding too large
        let x = det(&[1, 3, 5], 0.1);
        match x.conv1d(&det(&[2, 1, 3], 0.2), None, 1, 0, 1, 2) {
            Err(Error::Shape(m)) => {
                assert!(m.contains("conv1d: input channels 3 are not divisible by groups 2"), "{m}")
            }
            other => panic!("expected a shape error, got {other:?}"),
        }
        let bad = ConvOptions { stride: [1], output_padding: [1], ..Default::default() };
        match x.conv_transpose1d(&det(&[3, 1, 3], 0.2), None, &bad) {
            Err(Error::InvalidArgument(m)) => assert!(m.contains("output_padding 1 must be smaller"), "{m}"),
            other => panic!("expected an invalid-argument error, got {other:?}"),
        }
        Ok(())
    })
}

#[test]
fn pool_nd_fold_and_pixel_shuffle() {
    run(|| {
        use ctensor::nn::PoolOptions;
        let x = t64(&[1.0, 5.0, 2.0, 4.0, 3.0, 0.0], &[1, 1, 6]);
        assert_eq!(vals(&x.max_pool1d(2)?), vec![5.0, 4.0, 3.0]);
        assert_eq!(vals(&x.avg_pool1d(3)?), vec![8.0 / 3.0, 7.0 / 3.0]);
        let (m, i) = x.adaptive_max_pool_nd([2])?;
        assert_eq!((vals(&m), vals(&i)), (vec![5.0, 4.0], vec![1.0, 3.0]));
        let cube = Tensor::arange(0.0, 8.0, 1.0, ctensor::DType::Float64)?.reshape(&[1, 1, 2, 2, 2])?;
        let (v, idx) = cube.max_pool_nd(&PoolOptions::new([2, 2, 2]))?;
        assert_eq!((vals(&v), vals(&idx)), (vec![7.0], vec![7.0]));
        assert_eq!(vals(&cube.avg_pool3d([2, 2, 2])?), vec![3.5]);
        assert_eq!(vals(&cube.adaptive_avg_pool_nd([1, 1, 2])?), vec![3.0, 4.0]);
        gradcheck(|t| t[0].max_pool3d([2, 1, 2]), &[&det(&[1, 2, 4, 3, 4], 0.3)])?;
        gradcheck(|t| t[0].avg_pool_nd(&PoolOptions { padding: [1], ..PoolOptions::new([3]) }), &[&det(&[2, 5], 0.2)])?;
        // unfold then fold multiplies each element by the number of blocks holding it (1 without overlap)
        let img = det(&[1, 2, 4, 4], 0.4);
        let cols = img.unfold_blocks([2, 2], [1, 1], [0, 0], [2, 2])?;
        assert_eq!(cols.size(), vec![1, 8, 4]);
        assert_eq!(vals(&cols.fold_blocks([4, 4], [2, 2], [1, 1], [0, 0], [2, 2])?), vals(&img));
        gradcheck(|t| t[0].unfold_blocks([2, 3], [1, 1], [1, 0], [1, 2]), &[&img])?;
        let ps = img.reshape(&[1, 8, 2, 2])?.pixel_shuffle(2)?;
        assert_eq!(ps.size(), vec![1, 2, 4, 4]);
        assert_eq!(vals(&ps.pixel_unshuffle(2)?), vals(&img));
        assert!(matches!(img.pixel_shuffle(2), Err(Error::Shape(_))));
        Ok(())
    })
}
