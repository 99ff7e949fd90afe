// build.rs - finds libctensor for linking: $CTENSOR_LIB_DIR, then `pkg-config --libs ctensor`, then the
// repository's CMake build tree (<repo>/build). Emits the link flags, an rpath, and `links` metadata
// (DEP_CTENSOR_LIB_DIR / DEP_CTENSOR_INCLUDE_DIR for downstream build scripts).
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the library was found and how.
struct Found {
    lib_dir: PathBuf,
    include_dir: Option<PathBuf>,
    how: &'static str,
}

fn has_library(dir: &Path) -> bool {
    dir.join("libctensor.so").exists() || dir.join("libctensor.dylib").exists() || dir.join("ctensor.lib").exists()
}

/// The repository root: this crate lives in <repo>/bindings/rust/ctensor-sys.
fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    manifest.join("..").join("..").join("..")
}

fn from_env() -> Option<Found> {
    let dir = PathBuf::from(env::var_os("CTENSOR_LIB_DIR")?);
    if !has_library(&dir) {
        panic!("CTENSOR_LIB_DIR={} holds no libctensor.so", dir.display());
    }
    let include_dir = env::var_os("CTENSOR_INCLUDE_DIR").map(PathBuf::from);
    Some(Found { lib_dir: dir, include_dir, how: "CTENSOR_LIB_DIR" })
}

/// Runs `pkg-config <args> ctensor` and returns the tokens that start with `prefix`, prefix removed.
fn pkg_config_values(args: &[&str], prefix: &str) -> Option<Vec<String>> {
    let out = Command::new(env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into()))
        .args(args)
        .arg("ctensor")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    Some(text.split_whitespace().filter_map(|t| t.strip_prefix(prefix)).map(str::to_owned).collect())
}

fn from_pkg_config() -> Option<Found> {
    let dirs = pkg_config_values(&["--libs"], "-L")?;
    let lib_dir = dirs.into_iter().map(PathBuf::from).find(|d| has_library(d))?;
    let include_dir = pkg_config_values(&["--cflags"], "-I").and_then(|v| v.into_iter().next()).map(PathBuf::from);
    Some(Found { lib_dir, include_dir, how: "pkg-config" })
}

fn from_build_tree() -> Option<Found> {
    let root = repo_root();
    let dir = root.join("build");
    if !has_library(&dir) {
        return None;
    }
    let lib_dir = dir.canonicalize().unwrap_or(dir);
    let include_dir = root.join("include").canonicalize().ok();
    Some(Found { lib_dir, include_dir, how: "repository build tree" })
}

fn main() {
    println!("cargo:rerun-if-env-changed=CTENSOR_LIB_DIR");
    println!("cargo:rerun-if-env-changed=CTENSOR_INCLUDE_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let build_dir = repo_root().join("build");
    println!("cargo:rerun-if-changed={}", build_dir.join("libctensor.so").display());

    let found = from_env().or_else(from_pkg_config).or_else(from_build_tree).unwrap_or_else(|| {
        panic!(
            "libctensor not found: set CTENSOR_LIB_DIR, install ctensor (pkg-config ctensor), or build it with \
             `cmake -S . -B build && cmake --build build` in the repository root ({})",
            repo_root().display()
        )
    });
    let include_dir = found.include_dir.unwrap_or_else(|| repo_root().join("include"));
    let lib = found.lib_dir.display();
    println!("cargo:rustc-link-search=native={lib}");
    println!("cargo:rustc-link-lib=dylib=ctensor");
    // Tests, examples and binaries of this crate find the library at run time without LD_LIBRARY_PATH.
    println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
    println!("cargo:lib_dir={lib}");
    println!("cargo:include_dir={}", include_dir.display());
    println!("cargo:found_by={}", found.how);
}
