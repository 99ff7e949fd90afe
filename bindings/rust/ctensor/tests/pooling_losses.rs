// pooling_losses.rs - MaxPool2d / AvgPool2d with every option and the adaptive poolings against naive
// loops written here, the weighted / smoothed CrossEntropyLoss and NllLoss against hand formulas, their
// gradients against finite differences, and the library's errors.
mod common;

use common::{assert_close, det, err_of, gradcheck, run, vals};
use ctensor::nn::{AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, CrossEntropyLoss, MaxPool2d, Module, NllLoss};
use ctensor::{DType, Error, Reduction, Tensor};

/// Output length of one pooled axis, torch's rule (ceil mode drops a window starting in the right padding).
fn out_len(n: i64, k: i64, s: i64, p: i64, d: i64, ceil: bool) -> i64 {
    let span = n + 2 * p - d * (k - 1) - 1;
    let mut out = if ceil { (span + s - 1) / s + 1 } else { span / s + 1 };
    if ceil && (out - 1) * s >= n + p {
        out -= 1;
    }
    out
}

/// Naive max pooling of one [H, W] plane: values and flat argmax (first maximum; -1 if only padding).
fn naive_max(plane: &[f64], h: i64, w: i64, pool: &MaxPool2d) -> (Vec<f64>, Vec<i64>) {
    let [kh, kw] = pool.kernel;
    let oh = out_len(h, kh, pool.stride[0], pool.padding[0], pool.dilation[0], pool.ceil_mode);
    let ow = out_len(w, kw, pool.stride[1], pool.padding[1], pool.dilation[1], pool.ceil_mode);
    let (mut values, mut indices) = (vec![], vec![]);
    for oy in 0..oh {
        for ox in 0..ow {
            let (mut best, mut at) = (f64::NEG_INFINITY, -1i64);
            for ky in 0..kh {
                for kx in 0..kw {
                    let y = oy * pool.stride[0] - pool.padding[0] + ky * pool.dilation[0];
                    let x = ox * pool.stride[1] - pool.padding[1] + kx * pool.dilation[1];
                    if (0..h).contains(&y) && (0..w).contains(&x) && (at < 0 || plane[(y * w + x) as usize] > best) {
                        (best, at) = (plane[(y * w + x) as usize], y * w + x);
                    }
                }
            }
            values.push(best);
            indices.push(at);
        }
    }
    (values, indices)
}

/// Naive average pooling of one [H, W] plane with torch's divisor rules.
fn naive_avg(plane: &[f64], h: i64, w: i64, pool: &AvgPool2d) -> Vec<f64> {
    let ([kh, kw], [sh, sw], [ph, pw]) = (pool.kernel, pool.stride, pool.padding);
    let oh = out_len(h, kh, sh, ph, 1, pool.ceil_mode);
    let ow = out_len(w, kw, sw, pw, 1, pool.ceil_mode);
    let mut out = vec![];
    for oy in 0..oh {
        for ox in 0..ow {
            let (y0, x0) = (oy * sh - ph, ox * sw - pw);
            let (y1, x1) = ((y0 + kh).min(h + ph), (x0 + kw).min(w + pw));
            let padded_count = (y1 - y0) * (x1 - x0);
            let (y0c, x0c, y1c, x1c) = (y0.max(0), x0.max(0), y1.min(h), x1.min(w));
            let sum: f64 = (y0c..y1c)
                .flat_map(|y| (x0c..x1c).map(move |x| (y, x)))
                .map(|(y, x)| plane[(y * w + x) as usize])
                .sum();
            let divisor = match pool.divisor_override {
                Some(d) => d,
                None if pool.count_include_pad => padded_count,
                None => (y1c - y0c) * (x1c - x0c),
            };
            out.push(sum / divisor as f64);
        }
    }
    out
}

/// Naive adaptive pooling windows of one axis: output i covers [floor(i n / o), ceil((i + 1) n / o)).
fn adaptive_windows(n: i64, o: i64) -> Vec<(i64, i64)> {
    (0..o).map(|i| (i * n / o, ((i + 1) * n + o - 1) / o)).collect()
}

#[test]
fn max_pool_options_match_a_naive_loop() {
    run(|| {
        let x = det(&[2, 3, 7, 6], 0.2);
        let planes = vals(&x);
        let pools = [
            MaxPool2d::new([2, 2]),
            MaxPool2d::new([3, 2]).stride([2, 1]).padding([1, 1]).dilation([1, 2]).ceil_mode(true),
            MaxPool2d::new([3, 3]).stride([2, 2]).padding([1, 0]).ceil_mode(true),
            MaxPool2d::new([2, 3]).stride([3, 2]).dilation([3, 1]),
        ];
        for pool in pools {
            let (v, i) = pool.forward_with_indices(&x)?;
            assert_eq!(vals(&pool.forward(&x)?), vals(&v), "{pool:?}");
            let (mut ev, mut ei) = (vec![], vec![]);
            for plane in planes.chunks(42) {
                let (pv, pi) = naive_max(plane, 7, 6, &pool);
                ev.extend(pv);
                ei.extend(pi);
            }
            assert_eq!((vals(&v), i.to_vec::<i64>()?), (ev, ei), "{pool:?}");
        }
        // A window that holds only padding gives -inf and index -1.
        let (v, i) = MaxPool2d::new([2, 2])
            .stride([1, 1])
            .padding([1, 1])
            .dilation([3, 3])
            .forward_with_indices(&Tensor::ones(&[1, 1, 2, 2], DType::Float64)?)?;
        assert_eq!((vals(&v), i.to_vec::<i64>()?), (vec![f64::NEG_INFINITY], vec![-1]));
        // CHW input works too.
        assert_eq!(MaxPool2d::new([2, 2]).forward(&det(&[3, 4, 4], 0.0))?.size(), vec![3, 2, 2]);
        Ok(())
    })
}

#[test]
fn avg_pool_options_match_a_naive_loop() {
    run(|| {
        let x = det(&[2, 2, 5, 7], 0.6);
        let planes = vals(&x);
        let base = AvgPool2d::new([3, 2]).stride([2, 3]).padding([1, 1]);
        let pools = [
            AvgPool2d::new([2, 2]),
            base,
            base.count_include_pad(false),
            base.ceil_mode(true),
            base.ceil_mode(true).count_include_pad(false),
            base.divisor_override(Some(5)),
        ];
        for pool in pools {
            let got = pool.forward(&x)?;
            let expected: Vec<f64> = planes.chunks(35).flat_map(|p| naive_avg(p, 5, 7, &pool)).collect();
            assert_close(&vals(&got), &expected, 1e-13, 1e-14);
        }
        Ok(())
    })
}

#[test]
fn adaptive_pools_match_a_naive_loop() {
    run(|| {
        let x = det(&[2, 5, 7], 0.9); // CHW
        let planes = vals(&x);
        let (oh, ow) = (3, 4);
        let (mut avg, mut max, mut arg) = (vec![], vec![], vec![]);
        for plane in planes.chunks(35) {
            for &(y0, y1) in &adaptive_windows(5, oh) {
                for &(x0, x1) in &adaptive_windows(7, ow) {
                    let cells: Vec<i64> = (y0..y1).flat_map(|y| (x0..x1).map(move |x| y * 7 + x)).collect();
                    avg.push(cells.iter().map(|&c| plane[c as usize]).sum::<f64>() / cells.len() as f64);
                    let best =
                        cells
                            .iter()
                            .copied()
                            .fold(cells[0], |b, c| if plane[c as usize] > plane[b as usize] { c } else { b });
                    max.push(plane[best as usize]);
                    arg.push(best);
                }
            }
        }
        let a = x.adaptive_avg_pool2d([oh, ow])?;
        assert_eq!(a.size(), vec![2, 3, 4]);
        assert_close(&vals(&a), &avg, 1e-13, 1e-14);
        assert_eq!(vals(&AdaptiveAvgPool2d { output_size: [oh, ow] }.forward(&x)?), vals(&a));
        let (m, i) = x.adaptive_max_pool2d([oh, ow])?;
        assert_eq!((vals(&m), i.to_vec::<i64>()?), (max.clone(), arg));
        assert_eq!(vals(&AdaptiveMaxPool2d { output_size: [oh, ow] }.forward(&x)?), max);
        Ok(())
    })
}

#[test]
fn pooling_gradients_match_finite_differences() {
    run(|| {
        let x = det(&[1, 2, 5, 6], 0.3);
        let max = MaxPool2d::new([3, 2]).stride([2, 1]).padding([1, 1]).dilation([1, 2]).ceil_mode(true);
        gradcheck(|t| max.forward(&t[0]), &[&x])?;
        let avg = AvgPool2d::new([3, 3]).stride([2, 2]).padding([1, 1]).ceil_mode(true).count_include_pad(false);
        gradcheck(|t| avg.forward(&t[0]), &[&x])?;
        gradcheck(|t| avg.divisor_override(Some(4)).forward(&t[0]), &[&x])?;
        gradcheck(|t| t[0].adaptive_avg_pool2d([3, 4]), &[&x])?;
        gradcheck(|t| Ok(t[0].adaptive_max_pool2d([2, 4])?.0), &[&x])?;
        Ok(())
    })
}

#[test]
fn pooling_errors_carry_the_library_message() {
    run(|| {
        let x = det(&[1, 1, 4, 4], 0.0);
        let e = err_of(MaxPool2d::new([2, 2]).padding([2, 2]).forward(&x));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("at most half of kernel size"), "{e}");
        let e = err_of(MaxPool2d::new([5, 5]).forward_with_indices(&x));
        assert!(matches!(e, Error::Shape(_)) && e.message().contains("output size 0x0 is too small"), "{e}");
        let e = err_of(AvgPool2d::new([2, 2]).forward(&Tensor::ones(&[1, 1, 4, 4], DType::Int64)?));
        assert!(matches!(e, Error::DType(_)) && e.message().contains("avg_pool2d: expected a floating tensor"), "{e}");
        let e = err_of(AvgPool2d::new([2, 2]).divisor_override(Some(0)).forward(&x));
        assert!(
            matches!(e, Error::InvalidArgument(_)) && e.message().contains("divisor_override must be positive"),
            "{e}"
        );
        let e = err_of(x.adaptive_avg_pool2d([-1, 2]));
        assert!(
            matches!(e, Error::InvalidArgument(_)) && e.message().contains("must be non-negative, got -1x2"),
            "{e}"
        );
        let e = err_of(Tensor::ones(&[4], DType::Float64)?.adaptive_max_pool2d([1, 1]));
        assert!(matches!(e, Error::Shape(_)) && e.message().contains("expected input with 4 dims"), "{e}");
        Ok(())
    })
}

/// log_softmax of each row of a row-major [n, c] matrix.
fn log_softmax_rows(x: &[f64], c: usize) -> Vec<f64> {
    x.chunks(c)
        .flat_map(|r| {
            let lse = r.iter().map(|v| v.exp()).sum::<f64>().ln();
            r.iter().map(move |v| v - lse)
        })
        .collect()
}

#[test]
fn class_losses_with_weights_and_smoothing() {
    run(|| {
        let logits = det(&[4, 3], 0.5);
        let target = Tensor::from_slice(&[2i64, 0, -1, 1], &[4])?;
        let weight = Tensor::from_slice(&[0.5f64, 2.0, 1.5], &[3])?;
        let (w, t) = ([0.5, 2.0, 1.5], [2usize, 0, 99, 1]);
        let lp = log_softmax_rows(&vals(&logits), 3);
        let kept: Vec<usize> = (0..4).filter(|&i| i != 2).collect(); // target -1 is ignored below
        let nll: Vec<f64> = (0..4).map(|i| if i == 2 { 0.0 } else { -w[t[i]] * lp[i * 3 + t[i]] }).collect();
        let wsum: f64 = kept.iter().map(|&i| w[t[i]]).sum();
        let ce = CrossEntropyLoss::new().weight(&weight).ignore_index(-1);
        assert_close(&vals(&ce.clone().reduction(Reduction::None).forward(&logits, &target)?), &nll, 1e-14, 1e-15);
        assert_close(&[ce.forward(&logits, &target)?.item()?], &[nll.iter().sum::<f64>() / wsum], 1e-14, 0.0);
        let nll_mod = NllLoss::new().weight(&weight).ignore_index(-1).reduction(Reduction::Sum);
        assert_close(&[nll_mod.forward(&logits.log_softmax(1)?, &target)?.item()?], &[nll.iter().sum()], 1e-14, 0.0);
        // Label smoothing s: (1 - s) * nll + s / C * sum_c -w_c log p_c, both divided by the kept weights.
        let s = 0.3;
        let smooth: f64 = kept.iter().map(|&i| (0..3).map(|c| -w[c] * lp[i * 3 + c]).sum::<f64>()).sum();
        let expected = (1.0 - s) * nll.iter().sum::<f64>() / wsum + s / 3.0 * smooth / wsum;
        assert_close(&[ce.label_smoothing(s).forward(&logits, &target)?.item()?], &[expected], 1e-13, 0.0);
        // Unweighted, default ignore_index: same as the plain cross_entropy.
        let plain_t = Tensor::from_slice(&[2i64, 0, 1, 1], &[4])?;
        let plain = ctensor::nn::cross_entropy(&logits, &plain_t, Reduction::Mean)?.item()?;
        assert_close(&[CrossEntropyLoss::new().forward(&logits, &plain_t)?.item()?], &[plain], 1e-15, 0.0);
        Ok(())
    })
}

#[test]
fn class_loss_gradients_and_errors() {
    run(|| {
        let logits = det(&[3, 4, 2], 0.8); // [N, C, d]
        let target = Tensor::from_slice(&[3i64, 0, 1, -100, 2, 2], &[3, 2])?;
        let weight = Tensor::from_slice(&[1.0f64, 0.5, 2.0, 1.5], &[4])?;
        let ce = CrossEntropyLoss::new().weight(&weight).label_smoothing(0.1);
        gradcheck(|t| ce.forward(&t[0], &target), &[&logits])?;
        gradcheck(|t| ce.clone().reduction(Reduction::None).forward(&t[0], &target), &[&logits])?;
        gradcheck(|t| NllLoss::new().weight(&weight).forward(&t[0], &target), &[&logits])?;
        let e = err_of(CrossEntropyLoss::new().weight(&Tensor::ones(&[3], DType::Float64)?).forward(&logits, &target));
        assert!(matches!(e, Error::Shape(_)) && e.message().contains("expected a weight of shape [4]"), "{e}");
        let e = err_of(CrossEntropyLoss::new().label_smoothing(1.5).forward(&logits, &target));
        assert!(
            matches!(e, Error::InvalidArgument(_)) && e.message().contains("label_smoothing must be in [0, 1]"),
            "{e}"
        );
        let e = err_of(NllLoss::new().forward(&logits, &Tensor::from_slice(&[4i64, 0, 0, 0, 0, 0], &[3, 2])?));
        assert!(matches!(e, Error::Index(_)) && e.message().contains("target 4 is out of bounds"), "{e}");
        Ok(())
    })
}
