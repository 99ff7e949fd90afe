// build.rs - gives this crate's tests, doctests and examples an rpath to the libctensor that ctensor-sys
// found (DEP_CTENSOR_LIB_DIR from its `links = "ctensor"` metadata), so they run without LD_LIBRARY_PATH,
// and tells the tests that folder (CTENSOR_BUILD_LIB_DIR: tests/distributed.rs looks for the MPI backend there).
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_CTENSOR_LIB_DIR");
    if let Ok(dir) = std::env::var("DEP_CTENSOR_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
        println!("cargo:rustc-env=CTENSOR_BUILD_LIB_DIR={dir}");
    }
}
