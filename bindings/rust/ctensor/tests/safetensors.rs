// safetensors.rs - save_file / load_file: every dtype round-trips with metadata, the file is the format's
// bytes, and bad files are Error::Io; no handle leaks.
mod common;

use common::{err_of, run};
use ctensor::safetensors::{load_file, save_file};
use ctensor::{DType, Device, Error, Tensor};

fn temp(tag: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("ctensor_rs_{tag}_{}.safetensors", std::process::id()))
}

#[test]
fn every_dtype_round_trips_with_metadata() {
    run(|| {
        let path = temp("roundtrip");
        let a = Tensor::from_slice(&[1.5f32, -2.0, 3.0, 4.0], &[2, 2])?;
        let b = Tensor::from_slice(&[i64::MIN, i64::MAX, 9_007_199_254_740_993], &[3])?;
        let c = Tensor::from_slice(&[0u8, 255], &[2])?;
        let d = Tensor::from_slice(&[1e300f64], &[])?;
        let e = Tensor::from_slice(&[true, false, true], &[3])?;
        let at = a.transpose(0, 1)?; // a transposed view: stored row-major
        save_file(&[("a", &a), ("b", &b), ("c", &c), ("d", &d), ("e", &e), ("a.T", &at)], &[("format", "pt")], &path)?;
        let got = load_file(&path, Device::Cpu)?;
        let names: Vec<&str> = got.tensors.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "b", "c", "d", "e", "a.T"]);
        assert_eq!(got.metadata, vec![("format".to_string(), "pt".to_string())]);
        assert_eq!(got.get("a").unwrap().to_vec::<f32>()?, vec![1.5, -2.0, 3.0, 4.0]);
        assert_eq!(got.get("b").unwrap().to_vec::<i64>()?, vec![i64::MIN, i64::MAX, 9_007_199_254_740_993]);
        assert_eq!(got.get("c").unwrap().to_vec::<u8>()?, vec![0, 255]);
        assert_eq!(got.get("d").unwrap().shape(), Vec::<i64>::new());
        assert_eq!(got.get("e").unwrap().dtype(), DType::Bool);
        assert_eq!(got.get("a.T").unwrap().to_vec::<f32>()?, vec![1.5, 3.0, -2.0, 4.0]);
        assert!(got.get("zz").is_none());
        drop(got);
        std::fs::remove_file(&path).ok();
        Ok(())
    });
}

#[test]
fn bad_files_and_names_are_errors() {
    run(|| {
        let path = temp("bad");
        std::fs::write(&path, b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}      ").unwrap();
        match err_of(load_file(&path, Device::Cpu)) {
            Error::Io(m) => assert!(m.contains("not valid JSON"), "{m}"),
            e => panic!("expected Error::Io, got {e}"),
        }
        assert!(matches!(err_of(load_file(temp("missing"), Device::Cpu)), Error::Io(_)));
        let t = Tensor::from_slice(&[1.0f32], &[1])?;
        assert!(matches!(err_of(save_file(&[("x", &t), ("x", &t)], &[], &path)), Error::InvalidArgument(_)));
        assert!(matches!(err_of(save_file(&[("nul\0", &t)], &[], &path)), Error::InvalidArgument(_)));
        std::fs::remove_file(&path).ok();
        Ok(())
    });
}
