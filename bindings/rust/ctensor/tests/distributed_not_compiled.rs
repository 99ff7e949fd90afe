// distributed_not_compiled.rs - without the MPI backend (CTENSOR_MPI_BACKEND naming a missing file, set before this
// process's first distributed call; this binary holds this one test) every distributed call is Error::NotCompiled
// saying why, and tensors still work.
use ctensor::distributed::ProcessGroup;
use ctensor::{live_handles, DType, Error, Tensor};

#[test]
fn missing_backend_is_not_compiled() {
    std::env::set_var("CTENSOR_MPI_BACKEND", "/nonexistent/libctensor_mpi.so.1");
    let before = live_handles();
    match ProcessGroup::mpi() {
        Err(Error::NotCompiled(m)) => assert!(m.contains("/nonexistent/libctensor_mpi.so.1"), "{m}"),
        Err(e) => panic!("expected NotCompiled, got {e}"),
        Ok(_) => panic!("expected NotCompiled, got a process group"),
    }
    let t = (Tensor::ones(&[3], DType::Float32).unwrap() * 2.0).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), vec![2.0, 2.0, 2.0]);
    drop(t);
    assert_eq!(live_handles(), before);
}
