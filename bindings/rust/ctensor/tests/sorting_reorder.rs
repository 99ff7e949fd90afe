// sorting_reorder.rs - sort, argsort, topk, kthvalue, unique, cumprod, flip, roll, tril, triu and einsum:
// values against hand-computed results or simple loops, gradients against finite differences, and the
// library's errors mapped to the crate's Error variants.
mod common;

use common::{assert_close, det, err_of, gradcheck, run, vals};
use ctensor::{DType, Error, Tensor};

fn t64(v: &[f64], shape: &[i64]) -> Tensor {
    Tensor::from_slice(v, shape).unwrap()
}

fn ints(t: &Tensor) -> Vec<i64> {
    t.to_vec::<i64>().expect("to_vec")
}

#[test]
fn sort_and_argsort_values() {
    run(|| {
        let x = t64(&[3.0, 1.0, 2.0, 1.0, 5.0, 0.0], &[2, 3]);
        let (v, i) = x.sort(1, false)?;
        assert_eq!((vals(&v), ints(&i)), (vec![1.0, 2.0, 3.0, 0.0, 1.0, 5.0], vec![1, 2, 0, 2, 0, 1]));
        let (v, i) = x.sort(0, true)?;
        assert_eq!((vals(&v), ints(&i)), (vec![3.0, 5.0, 2.0, 1.0, 1.0, 0.0], vec![0, 1, 0, 1, 0, 1]));
        assert_eq!(i.dtype(), DType::Int64);
        assert_eq!(ints(&x.argsort(-1, true)?), vec![0, 2, 1, 1, 0, 2]);
        // Stable for ties in both directions; NaN last ascending and first descending.
        let ties = Tensor::from_slice(&[2i64, 1, 2, 1], &[4])?;
        assert_eq!(ints(&ties.argsort(0, false)?), vec![1, 3, 0, 2]);
        assert_eq!(ints(&ties.argsort(0, true)?), vec![0, 2, 1, 3]);
        let nan = t64(&[1.0, f64::NAN, -1.0], &[3]);
        let (v, i) = nan.sort(0, false)?;
        assert_eq!(ints(&i), vec![2, 0, 1]);
        assert!(vals(&v)[2].is_nan());
        assert_eq!(ints(&nan.argsort(0, true)?), vec![1, 0, 2]);
        // 0-d and empty inputs.
        let (v, i) = Tensor::scalar(4.0, DType::Float32)?.sort(0, false)?;
        assert_eq!((v.size(), v.item()?, i.item_i64()?), (vec![], 4.0, 0));
        let (v, i) = Tensor::zeros(&[0, 3], DType::Float32)?.sort(1, false)?;
        assert_eq!((v.size(), i.size()), (vec![0, 3], vec![0, 3]));
        Ok(())
    })
}

#[test]
fn topk_and_kthvalue_values() {
    run(|| {
        let x = t64(&[3.0, 1.0, 2.0, 4.0, 5.0, 0.0], &[2, 3]);
        let (v, i) = x.topk(2, 1, true, true)?;
        assert_eq!((v.size(), vals(&v), ints(&i)), (vec![2, 2], vec![3.0, 2.0, 5.0, 4.0], vec![0, 2, 1, 0]));
        let (v, i) = x.topk(1, 0, false, false)?;
        assert_eq!((vals(&v), ints(&i)), (vec![3.0, 1.0, 0.0], vec![0, 0, 1]));
        let (v, i) = x.topk(0, -1, true, true)?;
        assert_eq!((v.size(), i.size()), (vec![2, 0], vec![2, 0]));
        let (v, i) = x.kthvalue(2, 1, false)?;
        assert_eq!((v.size(), vals(&v), ints(&i)), (vec![2], vec![2.0, 4.0], vec![2, 0]));
        let (v, i) = x.kthvalue(1, -2, true)?;
        assert_eq!((v.size(), vals(&v), ints(&i)), (vec![1, 3], vec![3.0, 1.0, 0.0], vec![0, 0, 1]));
        // Against a simple per-row loop on a larger input.
        let big = det(&[4, 7], 0.3);
        let (v, _) = big.kthvalue(3, 1, false)?;
        let rows = vals(&big);
        let expected: Vec<f64> = rows
            .chunks(7)
            .map(|r| {
                let mut r = r.to_vec();
                r.sort_by(|a, b| a.partial_cmp(b).unwrap());
                r[2]
            })
            .collect();
        assert_eq!(vals(&v), expected);
        Ok(())
    })
}

#[test]
fn unique_values() {
    run(|| {
        let x = Tensor::from_slice(&[3i64, 1, 3, 2, 1, 3], &[2, 3])?;
        assert_eq!(ints(&x.unique(true)?), vec![1, 2, 3]);
        assert_eq!(ints(&x.unique(false)?), vec![3, 1, 2]);
        let u = x.unique_all(true)?;
        assert_eq!(
            (u.inverse.size(), ints(&u.inverse), ints(&u.counts)),
            (vec![2, 3], vec![2, 0, 2, 1, 0, 2], vec![2, 1, 3])
        );
        let u = x.unique_all(false)?;
        assert_eq!(
            (ints(&u.values), ints(&u.inverse), ints(&u.counts)),
            (vec![3, 1, 2], vec![0, 1, 0, 2, 1, 0], vec![3, 2, 1])
        );
        let f = t64(&[0.5, -1.0, 0.5], &[3]).unique(true)?;
        assert_eq!((f.dtype(), vals(&f)), (DType::Float64, vec![-1.0, 0.5]));
        let empty = Tensor::zeros(&[0], DType::Float32)?.unique_all(true)?;
        assert_eq!((empty.values.numel(), empty.counts.numel()), (0, 0));
        Ok(())
    })
}

#[test]
fn cumprod_flip_roll_tril_triu_values() {
    run(|| {
        let x = t64(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
        assert_eq!(vals(&x.cumprod(1)?), vec![1.0, 2.0, 6.0, 4.0, 20.0, 120.0]);
        assert_eq!(vals(&x.cumprod(-2)?), vec![1.0, 2.0, 3.0, 4.0, 10.0, 18.0]);
        let b = Tensor::from_slice(&[true, true, false], &[3])?.cumprod(0)?;
        assert_eq!((b.dtype(), ints(&b)), (DType::Int64, vec![1, 1, 0]));
        assert_eq!(vals(&x.flip(&[1])?), vec![3.0, 2.0, 1.0, 6.0, 5.0, 4.0]);
        assert_eq!(vals(&x.flip(&[0, -1])?), vec![6.0, 5.0, 4.0, 3.0, 2.0, 1.0]);
        assert_eq!(vals(&x.flip(&[])?), vals(&x));
        assert_eq!(vals(&x.roll(&[1], &[1])?), vec![3.0, 1.0, 2.0, 6.0, 4.0, 5.0]);
        assert_eq!(vals(&x.roll(&[1, -4], &[0, 1])?), vec![5.0, 6.0, 4.0, 2.0, 3.0, 1.0]);
        let flat = x.roll(&[2], &[])?;
        assert_eq!((flat.size(), vals(&flat)), (vec![2, 3], vec![5.0, 6.0, 1.0, 2.0, 3.0, 4.0]));
        let m = Tensor::arange(1.0, 10.0, 1.0, DType::Float64)?.reshape(&[3, 3])?;
        assert_eq!(vals(&m.tril(0)?), vec![1.0, 0.0, 0.0, 4.0, 5.0, 0.0, 7.0, 8.0, 9.0]);
        assert_eq!(vals(&m.tril(-1)?), vec![0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 7.0, 8.0, 0.0]);
        assert_eq!(vals(&m.triu(1)?), vec![0.0, 2.0, 3.0, 0.0, 0.0, 6.0, 0.0, 0.0, 0.0]);
        // Batched: the mask applies to the last two dims of every matrix.
        let batch = Tensor::ones(&[2, 2, 3], DType::Float32)?.triu(0)?;
        assert_eq!(vals(&batch), [1.0, 1.0, 1.0, 0.0, 1.0, 1.0].repeat(2));
        Ok(())
    })
}

#[test]
fn einsum_values() {
    run(|| {
        let a = det(&[2, 3], 0.1);
        let b = det(&[3, 4], 0.7);
        assert_close(&vals(&Tensor::einsum("ij,jk->ik", &[&a, &b])?), &vals(&a.matmul(&b)?), 1e-14, 1e-14);
        assert_close(&vals(&Tensor::einsum("ij,jk", &[&a, &b])?), &vals(&a.matmul(&b)?), 1e-14, 1e-14);
        assert_eq!(vals(&Tensor::einsum("ij->ji", &[&a])?), vals(&a.t()?.contiguous()?));
        let sq = t64(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
        assert_eq!(Tensor::einsum("ii", &[&sq])?.item()?, 5.0);
        assert_eq!(vals(&Tensor::einsum("ii->i", &[&sq])?), vec![1.0, 4.0]);
        // Batched matmul with broadcast dims, checked against a simple loop.
        let x = det(&[2, 2, 3], 0.2);
        let y = det(&[3, 2], 0.9);
        let z = Tensor::einsum("...ij,jk->...ik", &[&x, &y])?;
        let (xv, yv) = (vals(&x), vals(&y));
        let mut expected = vec![0.0; 8];
        for (n, e) in expected.iter_mut().enumerate() {
            let (bi, i, k) = (n / 4, (n / 2) % 2, n % 2);
            *e = (0..3).map(|j| xv[bi * 6 + i * 3 + j] * yv[j * 2 + k]).sum();
        }
        assert_eq!(z.size(), vec![2, 2, 2]);
        assert_close(&vals(&z), &expected, 1e-14, 1e-14);
        Ok(())
    })
}

#[test]
fn gradients_match_finite_differences() {
    run(|| {
        let x = det(&[3, 4], 0.4);
        gradcheck(|t| Ok(t[0].sort(1, true)?.0), &[&x])?;
        gradcheck(|t| Ok(t[0].sort(0, false)?.0), &[&x])?;
        gradcheck(|t| Ok(t[0].topk(2, -1, true, true)?.0), &[&x])?;
        gradcheck(|t| Ok(t[0].topk(2, 0, false, true)?.0), &[&x])?;
        gradcheck(|t| Ok(t[0].kthvalue(2, 1, false)?.0), &[&x])?;
        gradcheck(|t| Ok(t[0].kthvalue(3, 0, true)?.0), &[&x])?;
        gradcheck(|t| t[0].cumprod(1), &[&x])?;
        gradcheck(|t| t[0].cumprod(0), &[&t64(&[2.0, 0.0, -1.5, 0.5], &[4])])?; // through a zero
        gradcheck(|t| t[0].flip(&[0, 1]), &[&x])?;
        gradcheck(|t| t[0].roll(&[1, -1], &[0, 1]), &[&x])?;
        gradcheck(|t| t[0].roll(&[5], &[]), &[&x])?;
        gradcheck(|t| t[0].tril(1), &[&x])?;
        gradcheck(|t| t[0].triu(-1), &[&x])?;
        let y = det(&[4, 2], 1.3);
        gradcheck(|t| Tensor::einsum("ij,jk->ik", &[&t[0], &t[1]]), &[&x, &y])?;
        gradcheck(|t| Tensor::einsum("ij,ij->i", &[&t[0], &t[1]]), &[&x, &det(&[3, 4], 2.0)])?;
        Ok(())
    })
}

#[test]
fn errors_carry_the_library_message() {
    run(|| {
        let x = t64(&[3.0, 1.0, 2.0, 1.0, 5.0, 0.0], &[2, 3]);
        let e = err_of(x.sort(2, false));
        assert!(matches!(e, Error::Index(_)) && e.message().contains("sort: dim 2 is out of range"), "{e}");
        let e = err_of(x.topk(4, 1, true, true));
        assert!(matches!(e, Error::Index(_)) && e.message().contains("topk: k (4)"), "{e}");
        let e = err_of(x.kthvalue(0, 1, false));
        assert!(matches!(e, Error::Index(_)) && e.message().contains("k counts from 1"), "{e}");
        let e = err_of(x.flip(&[0, 0]));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("more than once"), "{e}");
        let e = err_of(x.roll(&[1, 2], &[0]));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("same length, got 2 and 1"), "{e}");
        let e = err_of(Tensor::ones(&[3], DType::Float32)?.tril(0));
        assert!(matches!(e, Error::Shape(_)) && e.message().contains("tril: input must have at least 2 dims"), "{e}");
        let e = err_of(Tensor::einsum("ij,jk->ik", &[&x, &x]));
        assert!(matches!(e, Error::Shape(_)) && e.message().contains("subscript j has size 3"), "{e}");
        let e = err_of(Tensor::einsum("ij,jk->ik", &[&x]));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("1 tensor(s) were given"), "{e}");
        let e = err_of(Tensor::einsum("i\0j", &[&x]));
        assert!(matches!(e, Error::InvalidArgument(_)) && e.message().contains("NUL"), "{e}");
        Ok(())
    })
}
