// amp.rs - mixed precision (issue 15): the RAII autocast region (dtypes per op, nesting, another thread outside
// the region, float32 gradients) and the GradScaler (growth, skip and backoff on an injected inf).
mod common;

use common::{err_of, run};
use ctensor::{
    autocast, autocast_cache_size, autocast_dtype, autocast_policy, is_autocast_enabled, set_autocast, DType, Device,
    Error, GradScaler, Reduction, Tensor,
};

#[test]
fn autocast_region_casts_listed_ops_only() {
    run(|| {
        let x = Tensor::from_slice(&[0.5f32, -1.0, 2.0, 0.25, 1.5, -0.75], &[2, 3])?;
        let w = Tensor::from_slice(&[1.0f32, 0.5, -0.5, 2.0, 0.0, 1.0], &[2, 3])?.requires_grad_(true)?;
        assert!(!is_autocast_enabled(Device::Cpu));
        {
            let _region = autocast(Device::Cpu, DType::BFloat16)?;
            assert!(is_autocast_enabled(Device::Cpu));
            assert!(!is_autocast_enabled(Device::Cuda(0)));
            let y = x.linear(&w, None)?;
            assert_eq!(y.dtype(), DType::BFloat16);
            assert_eq!(autocast_cache_size(), 1);
            let loss = ctensor::nn::mse_loss(&y, &x.sum(&[1], true)?.expand(&[2, 2])?, Reduction::Mean)?;
            assert_eq!(loss.dtype(), DType::Float32);
            assert_eq!(x.relu()?.dtype(), DType::Float32); // not listed
            {
                let _off = set_autocast(Device::Cpu, DType::BFloat16, false)?;
                assert_eq!(x.linear(&w, None)?.dtype(), DType::Float32);
            }
            let other = std::thread::spawn(|| is_autocast_enabled(Device::Cpu)).join().unwrap();
            assert!(!other);
            loss.backward()?;
            assert_eq!(w.grad().expect("w has a gradient").dtype(), DType::Float32);
        }
        assert_eq!(autocast_cache_size(), 0);
        assert!(!is_autocast_enabled(Device::Cpu));
        assert_eq!(x.linear(&w, None)?.dtype(), DType::Float32);
        {
            let _h = autocast(Device::Cpu, DType::Float16)?;
            assert_eq!(autocast_dtype(Device::Cpu)?, DType::Float16);
        }
        assert_eq!(autocast_dtype(Device::Cpu)?, DType::BFloat16);
        assert!(matches!(err_of(autocast(Device::Cpu, DType::Float64)), Error::DType(m) if m.contains("float64")));
        assert!(!is_autocast_enabled(Device::Cpu));
        assert_eq!(autocast_policy("linear", Device::Cpu)?, ctensor::sys::CT_AUTOCAST_LOWER_PRECISION);
        assert_eq!(autocast_policy("cat", Device::Cpu)?, ctensor::sys::CT_AUTOCAST_PROMOTE);
        Ok(())
    });
}

#[test]
fn grad_scaler_grows_skips_and_backs_off() {
    run(|| {
        let w = Tensor::from_slice(&[1.0f32, 2.0], &[2])?.requires_grad_(true)?;
        let mut scaler = GradScaler::with_options(8.0, 2.0, 0.5, 2, Device::Cpu)?;
        for _ in 0..2 {
            let loss = (&w * 3.0)?.sum_all()?;
            scaler.scale(&loss)?.backward()?;
            let mut stepped = false;
            assert!(scaler.step(&[&w], || {
                stepped = true;
                Ok(())
            })?);
            assert!(stepped);
            assert_eq!(w.grad().unwrap().to_vec::<f32>()?, vec![3.0, 3.0]); // unscaled
            scaler.update()?;
            w.grad().unwrap().zero_()?; // .grad shares the parameter's gradient
        }
        assert_eq!(scaler.get_scale()?, 16.0); // grown after two clean steps
        assert_eq!(scaler.growth_tracker()?, 0);
        let loss = (&w * f64::INFINITY)?.sum_all()?; // an overflow
        scaler.scale(&loss)?.backward()?;
        assert!(!scaler.step(&[&w], || panic!("the step must be skipped"))?);
        scaler.update()?;
        assert_eq!(scaler.get_scale()?, 8.0);
        assert!(matches!(err_of(scaler.update()), Error::InvalidArgument(_)));
        assert!(matches!(err_of(GradScaler::with_options(1.0, 0.5, 0.5, 1, Device::Cpu)), Error::InvalidArgument(_)));
        Ok(())
    });
}
