//! Named tensors in the safetensors format (`save_file` / `load_file`, like the `safetensors` crate and
//! `safetensors.torch`), so weights move between ctensor's languages, PyTorch and other tools.
use std::ffi::{c_char, CString};
use std::path::Path;

use crate::error::{check, ensure_abi, Error, Result};
use crate::tensor::out1;
use crate::{sys, Device, Tensor};

/// What a safetensors file holds: tensors in the file's data order, and string metadata.
#[derive(Debug)]
pub struct SafeTensors {
    /// (name, tensor) pairs in the order of their data in the file.
    pub tensors: Vec<(String, Tensor)>,
    /// The file's `__metadata__` as (key, value) pairs.
    pub metadata: Vec<(String, String)>,
}

impl SafeTensors {
    /// The tensor named `name`, if the file has one.
    pub fn get(&self, name: &str) -> Option<&Tensor> {
        self.tensors.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }
}

/// One ct_safetensors handle, released on drop.
struct Handle(sys::ct_safetensors);

impl Drop for Handle {
    fn drop(&mut self) {
        unsafe { sys::ct_safetensors_release(self.0) }
    }
}

fn c_text(what: &str, s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::InvalidArgument(format!("safetensors: {what} {s:?} contains a NUL byte")))
}

fn c_path(path: &Path) -> Result<CString> {
    let text = path.to_str().ok_or_else(|| Error::InvalidArgument(format!("safetensors: path {path:?} is not UTF-8")))?;
    c_text("path", text)
}

/// Reads a text the C convention returns (buf, cap, len): asks the length, then fills a buffer.
fn read_text(mut call: impl FnMut(*mut c_char, i32, *mut i32) -> sys::ct_status) -> Result<String> {
    let mut len = 0i32;
    check(call(std::ptr::null_mut(), 0, &mut len))?;
    let mut buf = vec![0u8; len as usize + 1];
    check(call(buf.as_mut_ptr().cast(), len + 1, &mut len))?;
    buf.truncate(len as usize);
    String::from_utf8(buf).map_err(|e| Error::Internal(format!("safetensors: text is not UTF-8: {e}")))
}

/// Writes `tensors` (any device; stored row-major) and `metadata` to `path` in the safetensors format.
pub fn save_file(tensors: &[(&str, &Tensor)], metadata: &[(&str, &str)], path: impl AsRef<Path>) -> Result<()> {
    ensure_abi()?;
    let mut raw = std::ptr::null_mut();
    check(unsafe { sys::ct_safetensors_new(&mut raw) })?;
    let f = Handle(raw);
    for (name, t) in tensors {
        let name = c_text("name", name)?;
        check(unsafe { sys::ct_safetensors_add(f.0, name.as_ptr(), t.as_raw()) })?;
    }
    for (key, value) in metadata {
        let (key, value) = (c_text("metadata key", key)?, c_text("metadata value", value)?);
        check(unsafe { sys::ct_safetensors_set_metadata(f.0, key.as_ptr(), value.as_ptr()) })?;
    }
    let path = c_path(path.as_ref())?;
    check(unsafe { sys::ct_save_safetensors(f.0, path.as_ptr()) })
}

/// Reads and checks the safetensors file at `path`, tensors on `device`. A bad file is `Error::Io` (or
/// `Error::DType` for a dtype ctensor lacks). CPU tensors view a private mapping of the file (zero-copy).
pub fn load_file(path: impl AsRef<Path>, device: Device) -> Result<SafeTensors> {
    ensure_abi()?;
    let path = c_path(path.as_ref())?;
    let mut raw = std::ptr::null_mut();
    check(unsafe { sys::ct_load_safetensors(path.as_ptr(), device.to_raw(), 1, &mut raw) })?;
    let f = Handle(raw);
    let (mut n, mut nm) = (0i32, 0i32);
    check(unsafe { sys::ct_safetensors_count(f.0, &mut n) })?;
    check(unsafe { sys::ct_safetensors_metadata_count(f.0, &mut nm) })?;
    let mut tensors = Vec::with_capacity(n as usize);
    for i in 0..n {
        let name = read_text(|buf, cap, len| unsafe { sys::ct_safetensors_name(f.0, i, buf, cap, len) })?;
        let c_name = c_text("name", &name)?;
        let t = out1(|out| unsafe { sys::ct_safetensors_get(f.0, c_name.as_ptr(), out) })?;
        tensors.push((name, t));
    }
    let mut metadata = Vec::with_capacity(nm as usize);
    for i in 0..nm {
        let key = read_text(|buf, cap, len| unsafe { sys::ct_safetensors_metadata_key(f.0, i, buf, cap, len) })?;
        let c_key = c_text("metadata key", &key)?;
        let value =
            read_text(|buf, cap, len| unsafe { sys::ct_safetensors_metadata_get(f.0, c_key.as_ptr(), buf, cap, len) })?;
        metadata.push((key, value));
    }
    Ok(SafeTensors { tensors, metadata })
}
