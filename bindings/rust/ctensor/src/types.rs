//! Dtypes, devices, creation options and the `Element` trait that ties Rust scalar types to dtypes.
use std::fmt;

use ctensor_sys as sys;

use crate::error::{Error, Result};

/// Element type of a tensor (the fixed `ct_dtype` values of the C ABI).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum DType {
    /// 32-bit IEEE float (`f32`).
    Float32 = sys::CT_FLOAT32,
    /// 64-bit IEEE float (`f64`).
    Float64 = sys::CT_FLOAT64,
    /// 32-bit signed integer (`i32`).
    Int32 = sys::CT_INT32,
    /// 64-bit signed integer (`i64`).
    Int64 = sys::CT_INT64,
    /// 8-bit unsigned integer (`u8`).
    UInt8 = sys::CT_UINT8,
    /// Boolean stored as one byte, 0 or 1 (`bool`).
    Bool = sys::CT_BOOL,
    /// 16-bit IEEE float. Rust has no stable `f16`: values go in and out as `f32`
    /// (`to_vec::<f32>`, `from_slice` of `f32` then `to_dtype`), computed in float32 and rounded.
    Float16 = sys::CT_FLOAT16,
    /// bfloat16 (8 exponent, 7 mantissa bits); read and written as `f32`, like `Float16`.
    BFloat16 = sys::CT_BFLOAT16,
    /// 8-bit signed integer (`i8`).
    Int8 = sys::CT_INT8,
    /// 16-bit signed integer (`i16`).
    Int16 = sys::CT_INT16,
    /// Complex of two `f32` (real, imag), interleaved; read and written as `[f32; 2]` pairs (`complex` module).
    Complex64 = sys::CT_COMPLEX64,
    /// Complex of two `f64` (real, imag), interleaved; read and written as `[f64; 2]` pairs.
    Complex128 = sys::CT_COMPLEX128,
}

impl DType {
    /// The C enum value.
    pub fn to_raw(self) -> sys::ct_dtype {
        self as sys::ct_dtype
    }

    /// The dtype of a C enum value.
    pub fn from_raw(raw: sys::ct_dtype) -> Result<DType> {
        Ok(match raw {
            sys::CT_FLOAT32 => DType::Float32,
            sys::CT_FLOAT64 => DType::Float64,
            sys::CT_INT32 => DType::Int32,
            sys::CT_INT64 => DType::Int64,
            sys::CT_UINT8 => DType::UInt8,
            sys::CT_BOOL => DType::Bool,
            sys::CT_FLOAT16 => DType::Float16,
            sys::CT_BFLOAT16 => DType::BFloat16,
            sys::CT_INT8 => DType::Int8,
            sys::CT_INT16 => DType::Int16,
            sys::CT_COMPLEX64 => DType::Complex64,
            sys::CT_COMPLEX128 => DType::Complex128,
            other => return Err(Error::DType(format!("unknown dtype value {other}"))),
        })
    }

    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        unsafe { sys::ct_dtype_size(self.to_raw()) as usize }
    }

    /// True for `Float32`, `Float64`, `Float16` and `BFloat16`.
    pub fn is_floating(self) -> bool {
        matches!(self, DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16)
    }

    /// True for `Complex64` and `Complex128`.
    pub fn is_complex(self) -> bool {
        matches!(self, DType::Complex64 | DType::Complex128)
    }

    /// The library's name ("float32", ...).
    pub fn name(self) -> String {
        crate::error::c_text(unsafe { sys::ct_dtype_name(self.to_raw()) })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Where a tensor lives. Devices are explicit: ops on tensors of different devices fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Device {
    /// Host memory.
    #[default]
    Cpu,
    /// A CUDA device by index.
    Cuda(i32),
}

impl Device {
    /// The C struct.
    pub fn to_raw(self) -> sys::ct_device {
        match self {
            Device::Cpu => sys::ct_device { type_: sys::CT_DEVICE_CPU, index: 0 },
            Device::Cuda(i) => sys::ct_device { type_: sys::CT_DEVICE_CUDA, index: i },
        }
    }

    /// The device of a C struct.
    pub fn from_raw(raw: sys::ct_device) -> Result<Device> {
        match raw.type_ {
            sys::CT_DEVICE_CPU => Ok(Device::Cpu),
            sys::CT_DEVICE_CUDA => Ok(Device::Cuda(raw.index)),
            other => Err(Error::Device(format!("unknown device type {other}"))),
        }
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Cuda(i) => write!(f, "cuda:{i}"),
        }
    }
}

/// Dtype and device of a new tensor. Creation functions take `impl Into<Options>`, so a `DType` alone
/// (on the CPU) or a `(DType, Device)` pair both work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Element type.
    pub dtype: DType,
    /// Where the tensor lives.
    pub device: Device,
}

impl From<DType> for Options {
    fn from(dtype: DType) -> Options {
        Options { dtype, device: Device::Cpu }
    }
}

impl From<(DType, Device)> for Options {
    fn from((dtype, device): (DType, Device)) -> Options {
        Options { dtype, device }
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A Rust scalar type that is the element type of a dtype: `f32`, `f64`, `i32`, `i64`, `u8`, `bool`.
/// Sealed: the byte layout of each must match the library's.
pub trait Element: Copy + sealed::Sealed + 'static {
    /// The dtype whose elements have this type.
    const DTYPE: DType;
    /// Converts a raw element read from the library (bool bytes may be any nonzero value).
    #[doc(hidden)]
    fn from_stored(raw: Self::Stored) -> Self;
    /// The type the library's bytes are read into (same size and alignment as Self).
    #[doc(hidden)]
    type Stored: Copy + Default;
}

macro_rules! element {
    ($t:ty, $d:ident) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            type Stored = $t;
            fn from_stored(raw: $t) -> $t {
                raw
            }
        }
    };
}
element!(f32, Float32);
element!(f64, Float64);
element!(i32, Int32);
element!(i64, Int64);
element!(u8, UInt8);
element!(i8, Int8);
element!(i16, Int16);

impl sealed::Sealed for bool {}
impl Element for bool {
    const DTYPE: DType = DType::Bool;
    type Stored = u8; // any byte is a valid u8; not every byte is a valid bool
    fn from_stored(raw: u8) -> bool {
        raw != 0
    }
}

/// Loss reduction of the `nn` loss functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reduction {
    /// Per-element losses.
    None,
    /// Mean over elements (weighted mean for weighted losses).
    #[default]
    Mean,
    /// Sum over elements.
    Sum,
}

impl Reduction {
    pub(crate) fn to_raw(self) -> i32 {
        match self {
            Reduction::None => sys::CT_REDUCTION_NONE,
            Reduction::Mean => sys::CT_REDUCTION_MEAN,
            Reduction::Sum => sys::CT_REDUCTION_SUM,
        }
    }
}
