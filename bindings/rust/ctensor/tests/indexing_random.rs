// indexing_random.rs - indexing and joining ops (values, gradients, errors) and random numbers
// (generator determinism, ranges, permutations).
mod common;

use common::{det, err_of, gradcheck, run, vals};
use ctensor::{manual_seed, DType, Device, Error, Generator, Tensor};

fn idx(v: &[i64], shape: &[i64]) -> Tensor {
    Tensor::from_slice(v, shape).unwrap()
}

#[test]
fn indexing_values() {
    run(|| {
        let x = Tensor::arange(0.0, 6.0, 1.0, DType::Float64)?.reshape(&[2, 3])?;
        assert_eq!(vals(&x.index_select(1, &idx(&[2, 0], &[2]))?), vec![2.0, 0.0, 5.0, 3.0]);
        assert_eq!(vals(&x.gather(1, &idx(&[1, 1, 0, 2], &[2, 2]))?), vec![1.0, 1.0, 3.0, 5.0]);
        let src = Tensor::full(&[2, 1], 9.0, DType::Float64)?;
        assert_eq!(vals(&x.scatter(1, &idx(&[0, 2], &[2, 1]), &src)?), vec![9.0, 1.0, 2.0, 3.0, 4.0, 9.0]);
        let ones = Tensor::ones(&[1, 3], DType::Float64)?;
        assert_eq!(vals(&x.scatter_add(0, &idx(&[1, 1, 1], &[1, 3]), &ones)?), vec![0.0, 1.0, 2.0, 4.0, 5.0, 6.0]);
        let mask = x.gt(&Tensor::scalar(3.0, DType::Float64)?)?;
        assert_eq!(vals(&x.masked_fill(&mask, -1.0)?), vec![0.0, 1.0, 2.0, 3.0, -1.0, -1.0]);
        assert_eq!(vals(&x.masked_select(&mask)?), vec![4.0, 5.0]);
        assert_eq!(mask.nonzero()?.to_vec::<i64>()?, vec![1, 1, 1, 2]);
        let c = Tensor::cat(&[&x, &x.narrow(0, 0, 1)?], 0)?;
        assert_eq!((c.size(), vals(&c)[6..].to_vec()), (vec![3, 3], vec![0.0, 1.0, 2.0]));
        assert_eq!(Tensor::stack(&[&x, &x], 1)?.size(), vec![2, 2, 3]);
        let parts = x.split(2, 1)?;
        assert_eq!((parts.len(), parts[0].size(), parts[1].size()), (2, vec![2, 2], vec![2, 1]));
        assert!(parts[1].shares_storage(&x));
        let chunks = Tensor::arange(0.0, 5.0, 1.0, DType::Int64)?.chunk(3, 0)?;
        let sizes: Vec<Vec<i64>> = chunks.iter().map(Tensor::size).collect();
        assert_eq!(sizes, vec![vec![2], vec![2], vec![1]]);
        let err = err_of(x.index_select(1, &idx(&[3], &[1])));
        assert!(matches!(&err, Error::Index(m) if m.contains('3')), "{err}");
        let err = err_of(Tensor::cat(&[&x, &Tensor::zeros(&[2, 2, 2], DType::Float64)?], 0));
        assert!(matches!(err, Error::Shape(_)), "{err}");
        Ok(())
    })
}

#[test]
fn gradcheck_indexing() {
    run(|| {
        let x = det(&[3, 4], 0.2);
        gradcheck(|t| t[0].index_select(0, &idx(&[2, 0, 2], &[3])), &[&x])?;
        gradcheck(|t| t[0].gather(1, &idx(&[0, 3, 3, 1, 2, 2], &[3, 2])), &[&x])?;
        gradcheck(|t| t[0].scatter_add(1, &idx(&[0, 0, 1, 1, 2, 2], &[3, 2]), &t[1]), &[&x, &det(&[3, 2], 0.5)])?;
        let mask = Tensor::from_slice(&[true, false, false, true], &[4])?;
        gradcheck(|t| t[0].masked_fill(&mask, 2.0), &[&x])?;
        gradcheck(|t| t[0].masked_select(&mask), &[&x])?;
        gradcheck(|t| Tensor::cat(&[&t[0], &t[1]], 1), &[&x, &det(&[3, 2], 0.9)])?;
        gradcheck(|t| Tensor::stack(&[&t[0], &t[1]], 0), &[&x, &det(&[3, 4], 0.9)])?;
        gradcheck(|t| Ok(t[0].split(3, 1)?.remove(1)), &[&x])?;
        Ok(())
    })
}

#[test]
fn generators_are_deterministic_per_seed() {
    run(|| {
        let mut g1 = Generator::new(42)?;
        let mut g2 = Generator::new(42)?;
        let a = Tensor::rand(&[100], DType::Float32, Some(&mut g1))?;
        let b = Tensor::rand(&[100], DType::Float32, Some(&mut g2))?;
        assert_eq!(a.to_vec::<f32>()?, b.to_vec::<f32>()?);
        let c = Tensor::rand(&[100], DType::Float32, Some(&mut g1))?;
        assert_ne!(a.to_vec::<f32>()?, c.to_vec::<f32>()?, "the state advances");
        g1.seed(42)?;
        assert_eq!(Tensor::rand(&[100], DType::Float32, Some(&mut g1))?.to_vec::<f32>()?, a.to_vec::<f32>()?);
        manual_seed(7)?;
        let d = Tensor::randn(&[10], DType::Float64, None)?;
        manual_seed(7)?;
        assert_eq!(vals(&Tensor::randn(&[10], DType::Float64, None)?), vals(&d));
        Ok(())
    })
}

#[test]
fn random_values_have_the_right_ranges_and_moments() {
    run(|| {
        let mut g = Generator::new(1)?;
        let u = vals(&Tensor::rand(&[10000], DType::Float64, Some(&mut g))?);
        assert!(u.iter().all(|&v| (0.0..1.0).contains(&v)));
        let mean = u.iter().sum::<f64>() / u.len() as f64;
        assert!((mean - 0.5).abs() < 0.02, "uniform mean {mean}");
        let n = Tensor::randn(&[10000], (DType::Float64, Device::Cpu), Some(&mut g))?;
        assert!(n.mean_all()?.item()?.abs() < 0.05);
        assert!((n.std(&[], 1.0, false)?.item()? - 1.0).abs() < 0.05);
        let r = Tensor::randint(-3, 4, &[1000], DType::Int64, Some(&mut g))?.to_vec::<i64>()?;
        assert!(r.iter().all(|&v| (-3..4).contains(&v)) && r.contains(&-3) && r.contains(&3));
        let mut p = Tensor::randperm(50, Device::Cpu, Some(&mut g))?.to_vec::<i64>()?;
        p.sort_unstable();
        assert_eq!(p, (0..50).collect::<Vec<_>>());
        let probs = Tensor::from_slice(&[0.0f32, 1.0, 0.0, 1.0], &[4])?;
        assert_eq!(probs.bernoulli(Some(&mut g))?.to_vec::<f32>()?, vec![0.0, 1.0, 0.0, 1.0]);
        assert!(matches!(Tensor::randint(5, 5, &[1], DType::Int64, None), Err(Error::InvalidArgument(_))));
        Ok(())
    })
}
