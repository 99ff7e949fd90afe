// build.rs - an rpath to the libctensor that ctensor-sys found (DEP_CTENSOR_LIB_DIR), so the runner needs no
// LD_LIBRARY_PATH (the same as bindings/rust/ctensor/build.rs does for the crate's own tests).
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_CTENSOR_LIB_DIR");
    if let Ok(dir) = std::env::var("DEP_CTENSOR_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
