// nn_optim.rs - nn functions and losses against hand-computed values and finite differences, the Module
// types, and optimizer steps against the torch.optim update formulas.
mod common;

use common::{assert_close, det, det_pos, gradcheck, run, vals};
use ctensor::nn::{self, Conv2d, Dropout, Flatten, Linear, Module, ReLU, Sequential, Sigmoid, Tanh, GELU};
use ctensor::optim::{Adam, AdamW, Sgd};
use ctensor::{DType, Error, Generator, Reduction, Tensor};

fn t64(v: &[f64], shape: &[i64]) -> Tensor {
    Tensor::from_slice(v, shape).unwrap()
}

#[test]
fn nn_function_values() {
    run(|| {
        let x = t64(&[1.0, 2.0], &[1, 2]);
        let w = t64(&[1.0, 0.0, 1.0, 1.0, 2.0, -1.0], &[3, 2]);
        let b = t64(&[0.5, 0.0, 1.0], &[3]);
        assert_eq!(vals(&x.linear(&w, Some(&b))?), vec![1.5, 3.0, 1.0]);
        assert_eq!(vals(&x.linear(&w, None)?), vec![1.0, 3.0, 0.0]);
        let s = t64(&[1.0, 2.0, 3.0], &[1, 3]).softmax(-1)?;
        let z = 1f64.exp() + 2f64.exp() + 3f64.exp();
        assert_close(&vals(&s), &[1f64.exp() / z, 2f64.exp() / z, 3f64.exp() / z], 1e-14, 0.0);
        let ls = t64(&[1.0, 2.0, 3.0], &[1, 3]).log_softmax(1)?;
        assert_close(&vals(&ls), &[1.0 - z.ln(), 2.0 - z.ln(), 3.0 - z.ln()], 1e-14, 0.0);
        let table = t64(&[0.0, 1.0, 10.0, 11.0, 20.0, 21.0], &[3, 2]);
        let e = table.embedding(&Tensor::from_slice(&[2i64, 0, 2], &[3])?)?;
        assert_eq!((e.size(), vals(&e)), (vec![3, 2], vec![20.0, 21.0, 0.0, 1.0, 20.0, 21.0]));
        let d = det(&[4, 4], 0.1);
        assert_eq!(vals(&d.dropout(0.5, false, None)?), vals(&d));
        let kept = vals(&Tensor::ones(&[1000], DType::Float64)?.dropout(0.25, true, Some(&mut Generator::new(3)?))?);
        assert!(kept.iter().all(|&v| v == 0.0 || (v - 4.0 / 3.0).abs() < 1e-12));
        let zeros = kept.iter().filter(|&&v| v == 0.0).count();
        assert!((150..350).contains(&zeros), "{zeros} of 1000 dropped at p = 0.25");
        Ok(())
    })
}

#[test]
fn conv_and_pooling_values() {
    run(|| {
        let img = Tensor::arange(0.0, 9.0, 1.0, DType::Float64)?.reshape(&[1, 1, 3, 3])?;
        let k = Tensor::ones(&[1, 1, 2, 2], DType::Float64)?;
        let y = img.conv2d(&k, Some(&t64(&[1.0], &[1])), [1, 1], [0, 0], [1, 1], 1)?;
        assert_eq!((y.size(), vals(&y)), (vec![1, 1, 2, 2], vec![9.0, 13.0, 21.0, 25.0]));
        let padded = img.conv2d(&k, None, [2, 2], [1, 1], [1, 1], 1)?;
        assert_eq!(vals(&padded), vec![0.0, 3.0, 9.0, 24.0]);
        assert_eq!(vals(&img.max_pool2d([2, 2], [1, 1], [0, 0])?), vec![4.0, 5.0, 7.0, 8.0]);
        assert_eq!(vals(&img.avg_pool2d([2, 2], [1, 1], [0, 0])?), vec![2.0, 3.0, 5.0, 6.0]);
        let err = img.conv2d(&Tensor::ones(&[1, 2, 2, 2], DType::Float64)?, None, [1, 1], [0, 0], [1, 1], 1);
        assert!(matches!(err, Err(Error::Shape(_))));
        Ok(())
    })
}

#[test]
fn loss_values() {
    run(|| {
        let logits = t64(&[1.0, 2.0, 0.5, 0.0, -1.0, 3.0], &[2, 3]);
        let target = Tensor::from_slice(&[1i64, 2], &[2])?;
        let rows: [(&[f64], usize); 2] = [(&[1.0, 2.0, 0.5], 1), (&[0.0, -1.0, 3.0], 2)];
        let by_hand: Vec<f64> =
            rows.iter().map(|(row, t)| row.iter().map(|v: &f64| v.exp()).sum::<f64>().ln() - row[*t]).collect();
        let none = nn::cross_entropy(&logits, &target, Reduction::None)?;
        assert_close(&vals(&none), &by_hand, 1e-14, 0.0);
        let mean = nn::cross_entropy(&logits, &target, Reduction::Mean)?.item()?;
        assert_close(&[mean], &[(by_hand[0] + by_hand[1]) / 2.0], 1e-14, 0.0);
        let sum = nn::cross_entropy(&logits, &target, Reduction::Sum)?.item()?;
        assert_close(&[sum], &[by_hand[0] + by_hand[1]], 1e-14, 0.0);
        let ignored = Tensor::from_slice(&[1i64, -100], &[2])?;
        assert_close(&[nn::cross_entropy(&logits, &ignored, Reduction::Mean)?.item()?], &[by_hand[0]], 1e-14, 0.0);
        let nll = nn::nll_loss(&logits.log_softmax(1)?, &target, Reduction::Mean, -100)?.item()?;
        assert_close(&[nll], &[mean], 1e-14, 0.0);
        let (a, b) = (t64(&[1.0, 2.0], &[2]), t64(&[0.0, 4.0], &[2]));
        assert_eq!(nn::mse_loss(&a, &b, Reduction::Mean)?.item()?, 2.5);
        let (p, y) = (t64(&[0.8, 0.4], &[2]), t64(&[1.0, 0.0], &[2]));
        let bce = -(0.8f64.ln() + 0.6f64.ln()) / 2.0;
        assert_close(&[nn::binary_cross_entropy(&p, &y, Reduction::Mean)?.item()?], &[bce], 1e-14, 0.0);
        let logit = t64(&[0.8f64.ln() - 0.2f64.ln(), 0.4f64.ln() - 0.6f64.ln()], &[2]);
        let with_logits = nn::binary_cross_entropy_with_logits(&logit, &y, Reduction::Mean)?.item()?;
        assert_close(&[with_logits], &[bce], 1e-12, 0.0);
        let err = nn::cross_entropy(&logits, &Tensor::from_slice(&[1i64, 2, 0], &[3])?, Reduction::Mean);
        assert!(matches!(err, Err(Error::Shape(_))));
        Ok(())
    })
}

#[test]
fn gradcheck_nn_functions_and_losses() {
    run(|| {
        let x = det(&[2, 3], 0.1);
        gradcheck(|t| t[0].linear(&t[1], Some(&t[2])), &[&x, &det(&[4, 3], 0.2), &det(&[4], 0.3)])?;
        gradcheck(|t| t[0].softmax(1), &[&x])?;
        gradcheck(|t| t[0].log_softmax(0), &[&x])?;
        let target = Tensor::from_slice(&[2i64, 0], &[2])?;
        gradcheck(|t| nn::cross_entropy(&t[0], &target, Reduction::Mean), &[&x])?;
        gradcheck(|t| nn::nll_loss(&t[0], &target, Reduction::Sum, -100), &[&x])?;
        gradcheck(|t| nn::mse_loss(&t[0], &t[1], Reduction::Mean), &[&x, &det(&[2, 3], 0.8)])?;
        let y = t64(&[1.0, 0.0, 1.0, 0.0, 1.0, 1.0], &[2, 3]);
        gradcheck(|t| nn::binary_cross_entropy(&t[0].sigmoid()?, &y, Reduction::Mean), &[&x])?;
        gradcheck(|t| nn::binary_cross_entropy_with_logits(&t[0], &y, Reduction::Sum), &[&x])?;
        let indices = Tensor::from_slice(&[1i64, 1, 0], &[3])?;
        gradcheck(|t| t[0].embedding(&indices), &[&det(&[2, 3], 0.4)])?;
        let img = det(&[1, 2, 4, 4], 0.3);
        gradcheck(
            |t| t[0].conv2d(&t[1], Some(&t[2]), [1, 1], [1, 1], [1, 1], 1),
            &[&img, &det(&[3, 2, 3, 3], 0.5), &det(&[3], 0.6)],
        )?;
        gradcheck(|t| t[0].conv2d(&t[1], None, [2, 2], [0, 0], [1, 1], 2), &[&img, &det(&[2, 1, 2, 2], 0.7)])?;
        gradcheck(|t| t[0].max_pool2d([2, 2], [2, 2], [0, 0]), &[&img])?;
        gradcheck(|t| t[0].avg_pool2d([3, 3], [1, 1], [1, 1]), &[&img])?;
        Ok(())
    })
}

#[test]
fn modules_forward_and_list_parameters() {
    run(|| {
        let mut gen = Generator::new(0)?;
        let lin = Linear::with_options(3, 2, true, DType::Float64, Some(&mut gen))?;
        let bound = 1.0 / 3f64.sqrt();
        assert!(vals(&lin.weight).iter().all(|v| v.abs() <= bound));
        assert!(lin.weight.requires_grad() && lin.weight.is_leaf());
        let x = det(&[5, 3], 0.1);
        let by_hand = x.matmul(&lin.weight.t()?)? + lin.bias.as_ref().unwrap();
        assert_eq!(vals(&lin.forward(&x)?), vals(&by_hand?));
        let mut model = Sequential::new()
            .add(Linear::new(4, 8)?)
            .add(ReLU)
            .add(Tanh)
            .add(GELU)
            .add(Sigmoid)
            .add(Dropout::new(0.5))
            .add(Linear::with_options(8, 2, false, DType::Float32, None)?);
        assert_eq!((model.len(), model.parameters().len()), (7, 3));
        model.set_training(false);
        let x = Tensor::ones(&[3, 4], DType::Float32)?;
        assert_eq!(vals(&model.forward(&x)?), vals(&model.forward(&x)?), "dropout is off in eval mode");
        let conv = Sequential::new().add(Conv2d::new(1, 4, [3, 3])?).add(ReLU).add(Flatten);
        assert_eq!(conv.forward(&Tensor::ones(&[2, 1, 5, 5], DType::Float32)?)?.size(), vec![2, 36]);
        assert_eq!(conv.parameters()[0].size(), vec![4, 1, 3, 3]);
        Ok(())
    })
}

/// One gradient step setup: a parameter p with p.grad = g.
fn param_with_grad(p: &[f64], g: &[f64]) -> ctensor::Result<Tensor> {
    let mut t = t64(p, &[p.len() as i64]).requires_grad_(true)?;
    t.set_grad(Some(&t64(g, &[g.len() as i64])))?;
    Ok(t)
}

#[test]
fn sgd_matches_the_update_formula() {
    run(|| {
        let p = param_with_grad(&[1.0, -2.0], &[0.5, 1.0])?;
        let mut opt = Sgd::new(0.1).build(std::slice::from_ref(&p))?;
        opt.step()?;
        assert_close(&vals(&p), &[0.95, -2.1], 1e-15, 0.0);
        // momentum 0.9 with weight decay 0.01: buf = g + wd p, then buf = 0.9 buf + g'
        let q = param_with_grad(&[1.0], &[1.0])?;
        let mut opt = Sgd::new(0.1).momentum(0.9).weight_decay(0.01).build(std::slice::from_ref(&q))?;
        opt.step()?;
        let b1 = 1.0 + 0.01 * 1.0;
        let q1 = 1.0 - 0.1 * b1;
        assert_close(&vals(&q), &[q1], 1e-14, 0.0);
        opt.step()?; // same .grad again
        let b2 = 0.9 * b1 + (1.0 + 0.01 * q1);
        assert_close(&vals(&q), &[q1 - 0.1 * b2], 1e-14, 0.0);
        assert_eq!(opt.lr(), 0.1);
        opt.set_lr(0.5)?;
        assert_eq!(opt.lr(), 0.5);
        opt.zero_grad_with(false)?;
        assert_eq!(vals(&q.grad().unwrap()), vec![0.0]);
        opt.zero_grad()?;
        assert!(q.grad().is_none());
        assert!(matches!(Sgd::new(-1.0).build(std::slice::from_ref(&q)), Err(Error::InvalidArgument(_))));
        Ok(())
    })
}

#[test]
fn adam_and_adamw_match_the_update_formula() {
    run(|| {
        // first step: m_hat = g, v_hat = g^2, so p -= lr * g / (|g| + eps)
        let p = param_with_grad(&[1.0, 2.0], &[0.5, -4.0])?;
        let mut adam = Adam::new(0.01).build(std::slice::from_ref(&p))?;
        adam.step()?;
        assert_close(&vals(&p), &[1.0 - 0.01 * 0.5 / (0.5 + 1e-8), 2.0 + 0.01 * 4.0 / (4.0 + 1e-8)], 1e-12, 0.0);
        // AdamW decays the weight first: p = p (1 - lr wd) - lr g / (|g| + eps)
        let q = param_with_grad(&[1.0], &[2.0])?;
        let mut adamw = AdamW::new(0.1).weight_decay(0.5).build(std::slice::from_ref(&q))?;
        adamw.step()?;
        assert_close(&vals(&q), &[1.0 * (1.0 - 0.1 * 0.5) - 0.1 * 2.0 / (2.0 + 1e-8)], 1e-12, 0.0);
        // Adam's weight decay is L2: g' = g + wd p
        let r = param_with_grad(&[1.0], &[2.0])?;
        let mut l2 = Adam::new(0.1).weight_decay(0.5).betas(0.8, 0.99).eps(1e-6).build(std::slice::from_ref(&r))?;
        l2.step()?;
        assert_close(&vals(&r), &[1.0 - 0.1 * 2.5 / (2.5 + 1e-6)], 1e-12, 0.0);
        Ok(())
    })
}

#[test]
fn a_small_model_learns_a_linear_map() {
    run(|| {
        let mut gen = Generator::new(5)?;
        let x = Tensor::randn(&[64, 3], DType::Float32, Some(&mut gen))?;
        let true_w = Tensor::from_slice(&[2.0f32, -1.0, 0.5], &[3, 1])?;
        let y = (x.matmul(&true_w)? + 0.25)?;
        let model = Linear::with_options(3, 1, true, DType::Float32, Some(&mut gen))?;
        let mut opt = Adam::new(0.05).build(&model.parameters())?;
        let mut first = None;
        let mut last = 0.0;
        for _ in 0..300 {
            let loss = nn::mse_loss(&model.forward(&x)?, &y, Reduction::Mean)?;
            opt.zero_grad()?;
            loss.backward()?;
            opt.step()?;
            last = loss.item()?;
            first.get_or_insert(last);
        }
        assert!(last < first.unwrap() * 1e-3, "loss {} -> {last}", first.unwrap());
        assert_close(&vals(&model.weight), &[2.0, -1.0, 0.5], 0.0, 0.02);
        Ok(())
    })
}

#[test]
fn optimizer_and_generator_handles_are_released() {
    run(|| {
        let before = ctensor::live_handles();
        {
            let p = det_pos(&[3], 0.1).requires_grad_(true)?;
            let _opt = AdamW::new(1e-3).build(std::slice::from_ref(&p))?;
            let _gen = Generator::new(1)?;
            assert!(ctensor::live_handles() >= before + 3);
        }
        assert_eq!(ctensor::live_handles(), before);
        Ok(())
    })
}
