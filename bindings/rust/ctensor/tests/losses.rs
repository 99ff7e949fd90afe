// losses.rs - the further losses (l1, smooth_l1, huber, kl_div, margin ranking, hinge embedding, soft margin,
// multilabel soft margin, multi margin, cosine embedding, triplet margin, poisson and gaussian nll): values
// against hand formulas, gradients against central differences, the modules' defaults, and error variants.
mod common;

use common::{assert_close, det, det_pos, err_of, gradcheck, run, vals};
use ctensor::nn::{
    self, CosineEmbeddingLoss, GaussianNllLoss, KLDivLoss, MultiMarginLoss, SmoothL1Loss, TripletMarginLoss,
};
use ctensor::{Error, Reduction, Tensor};

const REDUCTIONS: [Reduction; 3] = [Reduction::None, Reduction::Mean, Reduction::Sum];

fn reduce(per: &[f64], r: Reduction) -> Vec<f64> {
    let s: f64 = per.iter().sum();
    match r {
        Reduction::None => per.to_vec(),
        Reduction::Mean => vec![s / per.len() as f64],
        Reduction::Sum => vec![s],
    }
}

#[test]
fn pointwise_losses_match_their_formulas_and_gradients() {
    run(|| {
        let (x, t) = (det(&[2, 3], 0.3), det(&[3], 1.7));
        let (xv, tv) = (vals(&x), vals(&t));
        type Scalar = fn(f64, f64) -> f64;
        type Loss = fn(&Tensor, &Tensor, Reduction) -> ctensor::Result<Tensor>;
        let cases: [(&str, Loss, Scalar); 5] = [
            ("l1", nn::l1_loss, |x, t| (x - t).abs()),
            ("smooth_l1", |x, t, r| nn::smooth_l1_loss(x, t, r, 0.8), |x, t| {
                let d = (x - t).abs();
                if d < 0.8 { 0.5 * d * d / 0.8 } else { d - 0.4 }
            }),
            ("huber", |x, t, r| nn::huber_loss(x, t, r, 0.8), |x, t| {
                let d = (x - t).abs();
                if d < 0.8 { 0.5 * d * d } else { 0.8 * (d - 0.4) }
            }),
            ("soft_margin", nn::soft_margin_loss, |x, t| (-x * t).exp().ln_1p()),
            ("kl_div log_target", |x, t, r| nn::kl_div(x, t, r, true), |x, t| t.exp() * (t - x)),
        ];
        for (name, f, s) in cases {
            let per: Vec<f64> = (0..6).map(|i| s(xv[i], tv[i % 3])).collect();
            for r in REDUCTIONS {
                assert_close(&vals(&f(&x, &t, r)?), &reduce(&per, r), 1e-12, 1e-12);
                gradcheck(|v| f(&v[0], &v[1], r), &[&x, &t]).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
        let p = det_pos(&[2, 3], 0.4);
        let kl = nn::kl_div_batchmean(&x, &p, false)?;
        let expect: f64 = vals(&p).iter().zip(&xv).map(|(t, x)| t * (t.ln() - x)).sum::<f64>() / 2.0;
        assert_close(&vals(&kl), &[expect], 1e-12, 1e-12);
        let module = KLDivLoss { batchmean: true, ..KLDivLoss::new() };
        assert_close(&vals(&module.forward(&x, &p)?), &[expect], 1e-12, 1e-12);
        Ok(())
    });
}

#[test]
fn likelihood_losses() {
    run(|| {
        let (x, t, var) = (det(&[3, 2], 0.2), det_pos(&[3, 2], 0.9), det_pos(&[3], 0.5));
        let (xv, tv, vv) = (vals(&x), vals(&t), vals(&var));
        let per: Vec<f64> = (0..6).map(|i| xv[i].exp() - tv[i] * xv[i]).collect();
        assert_close(&vals(&nn::poisson_nll_loss(&x, &t, true, false, 1e-8, Reduction::Sum)?), &reduce(&per, Reduction::Sum), 1e-12, 1e-12);
        let per: Vec<f64> = (0..6)
            .map(|i| {
                let d = xv[i] - tv[i];
                0.5 * (vv[i / 2].ln() + d * d / vv[i / 2]) + 0.5 * (2.0 * std::f64::consts::PI).ln()
            })
            .collect();
        let module = GaussianNllLoss { full: true, ..GaussianNllLoss::new() };
        assert_close(&vals(&module.forward(&x, &t, &var)?), &reduce(&per, Reduction::Mean), 1e-12, 1e-12);
        gradcheck(|v| nn::gaussian_nll_loss(&v[0], &v[1], &v[2], false, 1e-6, Reduction::None), &[&x, &t, &var])?;
        gradcheck(|v| nn::poisson_nll_loss(&v[0], &v[1], false, true, 1e-8, Reduction::Mean), &[&t, &det_pos(&[3, 2], 3.0)])?;
        let bad = err_of(nn::gaussian_nll_loss(&x, &t, &det_pos(&[2], 0.1), false, 1e-6, Reduction::Mean));
        assert!(matches!(bad, Error::Shape(ref m) if m.contains("var of shape [2] is of incorrect size")), "{bad}");
        Ok(())
    });
}

#[test]
fn margin_losses() {
    run(|| {
        let (a, b, c) = (det(&[3, 4], 0.1), det(&[3, 4], 0.6), det(&[3, 4], 1.1));
        let y = Tensor::from_slice(&[1.0f64, -1.0, -1.0], &[3])?;
        let classes = Tensor::from_slice(&[3i64, 0, 2], &[3])?;
        let (av, bv) = (vals(&a), vals(&b));
        // multi margin, p 2, margin 0.5 against its definition
        let mut per = vec![];
        for (i, yi) in [3usize, 0, 2].iter().enumerate() {
            let s: f64 = (0..4).filter(|j| j != yi).map(|j| (0.5 - av[i * 4 + yi] + av[i * 4 + j]).max(0.0).powi(2)).sum();
            per.push(s / 4.0);
        }
        let mm = MultiMarginLoss { p: 2, margin: 0.5, reduction: Reduction::None, ..MultiMarginLoss::new() };
        assert_close(&vals(&mm.forward(&a, &classes)?), &per, 1e-12, 1e-12);
        gradcheck(|v| mm.forward(&v[0], &classes), &[&a])?;
        // cosine embedding
        let per: Vec<f64> = (0..3)
            .map(|i| {
                let (r1, r2) = (&av[i * 4..i * 4 + 4], &bv[i * 4..i * 4 + 4]);
                let dot: f64 = r1.iter().zip(r2).map(|(p, q)| p * q).sum();
                let (n1, n2): (f64, f64) = (r1.iter().map(|p| p * p).sum(), r2.iter().map(|q| q * q).sum());
                let cos = dot / ((n1 + 1e-12) * (n2 + 1e-12)).sqrt();
                if i == 0 { 1.0 - cos } else { (cos - 0.1).max(0.0) }
            })
            .collect();
        let ce = CosineEmbeddingLoss { margin: 0.1, reduction: Reduction::None };
        assert_close(&vals(&ce.forward(&a, &b, &y)?), &per, 1e-12, 1e-12);
        gradcheck(|v| nn::cosine_embedding_loss(&v[0], &v[1], &y, 0.1, Reduction::Sum), &[&a, &b])?;
        // triplet, margin ranking, hinge, multilabel: gradients
        let tm = TripletMarginLoss { swap: true, p: 1.0, ..TripletMarginLoss::new() };
        gradcheck(|v| tm.forward(&v[0], &v[1], &v[2]), &[&a, &b, &c])?;
        gradcheck(|v| nn::margin_ranking_loss(&v[0], &v[1], &y, 0.2, Reduction::None), &[&det(&[3], 0.3), &det(&[3], 0.8)])?;
        let signs = Tensor::from_slice(&[1.0f64, -1.0, 1.0, -1.0], &[4])?;
        gradcheck(|v| nn::hinge_embedding_loss(&v[0], &signs, 1.0, Reduction::Mean), &[&a])?;
        let labels = Tensor::from_slice(&[1.0f64, 0.0, 0.0, 1.0], &[4])?;
        gradcheck(|v| nn::multilabel_soft_margin_loss(&v[0], &labels, Some(&v[1]), Reduction::None), &[&a, &det_pos(&[4], 0.2)])?;
        // errors: a label out of range, p 3, mismatched dims
        let oob = Tensor::from_slice(&[4i64, 0, 2], &[3])?;
        assert!(matches!(err_of(nn::multi_margin_loss(&a, &oob, 1, 1.0, None, Reduction::Mean)), Error::Index(_)));
        assert!(matches!(err_of(nn::multi_margin_loss(&a, &classes, 3, 1.0, None, Reduction::Mean)), Error::InvalidArgument(_)));
        assert!(matches!(err_of(nn::triplet_margin_loss(&a, &det(&[4], 0.0), &c, 1.0, 2.0, 1e-6, false, Reduction::Mean)), Error::Shape(_)));
        assert!(matches!(err_of(SmoothL1Loss { beta: -1.0, ..SmoothL1Loss::new() }.forward(&a, &b)), Error::InvalidArgument(_)));
        Ok(())
    });
}

#[test]
fn ctc_loss_gradients_and_errors() {
    run(|| {
        // log_softmax(logits [T = 4, N = 2, C = 3]): torch's CTC gradient is the true one through log_softmax
        let logits = det(&[4, 2, 3], 0.7);
        let targets = Tensor::from_slice(&[1i64, 2, 2, 0], &[2, 2])?;
        let module = nn::CtcLoss { reduction: Reduction::Sum, ..nn::CtcLoss::new() };
        gradcheck(|v| module.forward(&v[0].log_softmax(2)?, &targets, &[4, 3], &[2, 1]), &[&logits])?;
        // a lone blank-free path: T = 1, target [1] has probability softmax(logits)[1]
        let one = Tensor::from_slice(&[0.5f64, 1.5, -1.0], &[1, 3])?;
        let loss = nn::ctc_loss(&one.log_softmax(1)?, &Tensor::from_slice(&[1i64], &[1])?, &[1], &[1], 0, Reduction::None, false)?;
        let p1 = 1.5f64.exp() / (0.5f64.exp() + 1.5f64.exp() + (-1.0f64).exp());
        assert_close(&vals(&loss), &[-p1.ln()], 1e-12, 1e-12);
        let lp = logits.log_softmax(2)?;
        let oob = Tensor::from_slice(&[1i64, 3, 2, 0], &[2, 2])?;
        assert!(matches!(err_of(nn::ctc_loss(&lp, &oob, &[4, 3], &[2, 1], 0, Reduction::Mean, false)), Error::Index(_)));
        assert!(matches!(err_of(nn::ctc_loss(&lp, &targets, &[5, 3], &[2, 1], 0, Reduction::Mean, false)), Error::Shape(_)));
        assert!(matches!(err_of(nn::ctc_loss(&lp, &targets, &[4], &[2, 1], 0, Reduction::Mean, false)), Error::InvalidArgument(_)));
        Ok(())
    });
}
