//! The structured error type, the one helper that maps a `ct_status` to a `Result`, and the ABI check
//! that runs once before the first handle is made.
use std::ffi::{CStr, CString};
use std::fmt;
use std::sync::OnceLock;

use ctensor_sys as sys;

/// A failure reported by the library: the kind (one variant per `ct_status`) and the library's message,
/// which names the op and the shapes, dtypes, devices or values involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A bad argument value (NULL pointer, negative size, bad option).
    InvalidArgument(String),
    /// A NULL, unknown or already released handle.
    InvalidHandle(String),
    /// Shapes that do not fit the op.
    Shape(String),
    /// A dtype the op does not accept.
    DType(String),
    /// Tensors on different devices, or an unusable device.
    Device(String),
    /// A dim or index out of range.
    Index(String),
    /// An allocation that could not be satisfied.
    OutOfMemory(String),
    /// A feature (e.g. the CUDA backend) not built or not loadable.
    NotCompiled(String),
    /// A valid request this version does not implement.
    NotSupported(String),
    /// An autograd misuse (second backward, modified saved tensor, ...).
    Autograd(String),
    /// A bug in ctensor; the message says where.
    Internal(String),
    /// A user callback (custom backward) reported a failure or panicked.
    Callback(String),
    /// The loaded library is older than, or incompatible with, this crate.
    Version(String),
    /// A file that cannot be read or written, or is not a valid file of its format.
    Io(String),
    /// A collective failed: a peer died or disagreed on shape/dtype, or the timeout passed.
    Distributed(String),
    /// A status code this crate does not know (from a newer library), with its message.
    Unknown(i32, String),
}

/// `std::result::Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Builds the error of a non-OK status with a message.
    pub fn from_status(status: sys::ct_status, message: impl Into<String>) -> Error {
        let m = message.into();
        match status {
            sys::CT_ERR_INVALID_ARGUMENT => Error::InvalidArgument(m),
            sys::CT_ERR_INVALID_HANDLE => Error::InvalidHandle(m),
            sys::CT_ERR_SHAPE => Error::Shape(m),
            sys::CT_ERR_DTYPE => Error::DType(m),
            sys::CT_ERR_DEVICE => Error::Device(m),
            sys::CT_ERR_INDEX => Error::Index(m),
            sys::CT_ERR_OUT_OF_MEMORY => Error::OutOfMemory(m),
            sys::CT_ERR_NOT_COMPILED => Error::NotCompiled(m),
            sys::CT_ERR_NOT_SUPPORTED => Error::NotSupported(m),
            sys::CT_ERR_AUTOGRAD => Error::Autograd(m),
            sys::CT_ERR_INTERNAL => Error::Internal(m),
            sys::CT_ERR_CALLBACK => Error::Callback(m),
            sys::CT_ERR_VERSION => Error::Version(m),
            sys::CT_ERR_IO => Error::Io(m),
            sys::CT_ERR_DISTRIBUTED => Error::Distributed(m),
            other => Error::Unknown(other, m),
        }
    }

    /// The `ct_status` code of this error.
    pub fn status(&self) -> sys::ct_status {
        match self {
            Error::InvalidArgument(_) => sys::CT_ERR_INVALID_ARGUMENT,
            Error::InvalidHandle(_) => sys::CT_ERR_INVALID_HANDLE,
            Error::Shape(_) => sys::CT_ERR_SHAPE,
            Error::DType(_) => sys::CT_ERR_DTYPE,
            Error::Device(_) => sys::CT_ERR_DEVICE,
            Error::Index(_) => sys::CT_ERR_INDEX,
            Error::OutOfMemory(_) => sys::CT_ERR_OUT_OF_MEMORY,
            Error::NotCompiled(_) => sys::CT_ERR_NOT_COMPILED,
            Error::NotSupported(_) => sys::CT_ERR_NOT_SUPPORTED,
            Error::Autograd(_) => sys::CT_ERR_AUTOGRAD,
            Error::Internal(_) => sys::CT_ERR_INTERNAL,
            Error::Callback(_) => sys::CT_ERR_CALLBACK,
            Error::Version(_) => sys::CT_ERR_VERSION,
            Error::Io(_) => sys::CT_ERR_IO,
            Error::Distributed(_) => sys::CT_ERR_DISTRIBUTED,
            Error::Unknown(code, _) => *code,
        }
    }

    /// The library's message.
    pub fn message(&self) -> &str {
        match self {
            Error::InvalidArgument(m)
            | Error::InvalidHandle(m)
            | Error::Shape(m)
            | Error::DType(m)
            | Error::Device(m)
            | Error::Index(m)
            | Error::OutOfMemory(m)
            | Error::NotCompiled(m)
            | Error::NotSupported(m)
            | Error::Autograd(m)
            | Error::Internal(m)
            | Error::Callback(m)
            | Error::Version(m)
            | Error::Io(m)
            | Error::Distributed(m)
            | Error::Unknown(_, m) => m,
        }
    }

    /// Records this error as the calling thread's ctensor error (for callbacks that return a status).
    pub(crate) fn set_as_last_error(&self) -> sys::ct_status {
        let text = CString::new(self.message().replace('\0', " ")).unwrap_or_default();
        unsafe { sys::ct_set_error(self.status(), text.as_ptr()) }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = unsafe { CStr::from_ptr(sys::ct_status_name(self.status())) };
        write!(f, "{}: {}", name.to_string_lossy(), self.message())
    }
}

impl std::error::Error for Error {}

/// Copies a static or thread-local C string of the library (NULL gives "").
pub(crate) fn c_text(p: *const std::os::raw::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The one status -> Result mapping: CT_OK is Ok(()); anything else takes this thread's last message.
pub fn check(status: sys::ct_status) -> Result<()> {
    if status == sys::CT_OK {
        return Ok(());
    }
    Err(Error::from_status(status, c_text(unsafe { sys::ct_last_error() })))
}

static ABI: OnceLock<Result<()>> = OnceLock::new();

/// Checks once per process that the loaded library serves this crate's ABI (major version and the
/// minor version the declarations need). Every constructor calls it, so ops never run on a wrong library.
pub fn ensure_abi() -> Result<()> {
    ABI.get_or_init(|| {
        let status = unsafe { sys::ct_check_abi(sys::CT_ABI_VERSION, sys::CT_VERSION_MINOR) };
        check(status).map_err(|e| {
            Error::Version(format!(
                "ctensor crate needs ABI {}.{}, the loaded library is {} (ABI {}): {}",
                sys::CT_ABI_VERSION,
                sys::CT_VERSION_MINOR,
                crate::version_string(),
                unsafe { sys::ct_abi_version() },
                e.message()
            ))
        })
    })
    .clone()
}
