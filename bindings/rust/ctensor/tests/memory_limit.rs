// memory_limit.rs - the CPU memory limit from Rust: Error::OutOfMemory naming the op, inputs and the graph
// intact, a failed backward that can run again. One test: the limit is process-wide, so nothing may run beside it.
mod common;

use common::{err_of, run};
use ctensor::{cpu_memory_stats, set_cpu_memory_limit, DType, Error, Tensor};

#[test]
fn limit_fails_cleanly_and_recovers() {
    run(|| {
        let a = Tensor::ones(&[64, 64], DType::Float32)?;
        let stats = cpu_memory_stats()?;
        assert_eq!(stats.limit, None);
        set_cpu_memory_limit(Some(stats.allocated))?; // nothing more may be allocated
        let failed = a.add(&a);
        set_cpu_memory_limit(None)?;
        match err_of(failed) {
            Error::OutOfMemory(m) => assert!(m.starts_with("add:") && m.contains("memory limit"), "{m}"),
            e => panic!("expected OutOfMemory, got {e}"),
        }
        assert_eq!(a.add(&a)?.to_vec::<f32>()?, vec![2.0; 64 * 64]);

        let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0], &[3])?.requires_grad_(true)?;
        let loss = x.tanh()?.mul(&x)?.exp()?.sum_all()?;
        set_cpu_memory_limit(Some(cpu_memory_stats()?.allocated))?;
        let failed = loss.backward();
        set_cpu_memory_limit(None)?;
        assert!(matches!(err_of(failed), Error::OutOfMemory(_)));
        assert!(x.grad().is_none(), "a failed backward wrote .grad");
        loss.backward()?; // the graph was kept
        let g = x.grad().expect("grad after the second backward").to_vec::<f64>()?;
        for (i, v) in [1.0f64, 2.0, 3.0].iter().enumerate() {
            let expected = (v.tanh() * v).exp() * (v.tanh() + v * (1.0 - v.tanh() * v.tanh()));
            assert!((g[i] - expected).abs() < 1e-12, "{} vs {expected}", g[i]);
        }
        assert!(matches!(err_of(set_cpu_memory_limit(Some(-5))), Error::InvalidArgument(_)));
        Ok(())
    });
}
