//! N-d convolution (issue 14): `conv1d`, `conv3d` and `conv_transpose1d/2d/3d` tensor methods, one call each of
//! `ct_convolution` (one implementation for every spatial rank), and the layers `ConvNd<N>` /
//! `ConvTransposeNd<N>` (aliases `Conv1d`, `Conv3d`, `ConvTranspose1d/2d/3d`; `Conv2d` lives in `nn`), initialised
//! like PyTorch (uniform in +-1/sqrt(fan_in), fan_in = weight dim 1 times the kernel volume).
use ctensor_sys as sys;

use crate::error::Result;
use crate::nn::{uniform_param, Module};
use crate::random::Generator;
use crate::tensor::{opt_raw, out1, Tensor};
use crate::types::DType;

/// Stride, padding, dilation (and, transposed, output_padding) of an N-d convolution, `N` values each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvOptions<const N: usize> {
    /// Step between windows.
    pub stride: [i64; N],
    /// Implicit zero padding on both sides.
    pub padding: [i64; N],
    /// Spacing between kernel elements.
    pub dilation: [i64; N],
    /// Extra size added to one side of a transposed convolution's output (must be < stride or < dilation).
    pub output_padding: [i64; N],
    /// Input and output channels are split into this many groups.
    pub groups: i64,
}

impl<const N: usize> Default for ConvOptions<N> {
    fn default() -> Self {
        ConvOptions { stride: [1; N], padding: [0; N], dilation: [1; N], output_padding: [0; N], groups: 1 }
    }
}

impl Tensor {
    /// The one call of `ct_convolution` behind every method here.
    fn convolution<const N: usize>(
        &self,
        weight: &Tensor,
        bias: Option<&Tensor>,
        o: &ConvOptions<N>,
        transposed: bool,
    ) -> Result<Tensor> {
        out1(|out| unsafe {
            sys::ct_convolution(
                self.as_raw(),
                weight.as_raw(),
                opt_raw(bias),
                o.stride.as_ptr(),
                o.padding.as_ptr(),
                o.dilation.as_ptr(),
                N as i32,
                transposed as i32,
                o.output_padding.as_ptr(),
                o.groups,
                out,
            )
        })
    }

    /// 1-D convolution of `[N, C, L]` (or `[C, L]`) input with `weight` `[O, C/groups, k]`.
    pub fn conv1d(
        &self,
        weight: &Tensor,
        bias: Option<&Tensor>,
        stride: i64,
        padding: i64,
        dilation: i64,
        groups: i64,
    ) -> Result<Tensor> {
        let o =
            ConvOptions { stride: [stride], padding: [padding], dilation: [dilation], groups, ..Default::default() };
        self.convolution(weight, bias, &o, false)
    }

    /// 3-D convolution of `[N, C, D, H, W]` (or `[C, D, H, W]`) input with `weight` `[O, C/groups, kD, kH, kW]`.
    pub fn conv3d(
        &self,
        weight: &Tensor,
        bias: Option<&Tensor>,
        stride: [i64; 3],
        padding: [i64; 3],
        dilation: [i64; 3],
        groups: i64,
    ) -> Result<Tensor> {
        let o = ConvOptions { stride, padding, dilation, groups, ..Default::default() };
        self.convolution(weight, bias, &o, false)
    }

    /// Transposed N-d convolution (the gradient of `conv` with respect to its input) with `weight`
    /// `[C, O/groups, k...]`; the output size is `(in - 1) * stride - 2 * padding + dilation * (k - 1) +
    /// output_padding + 1` per dim.
    pub fn conv_transpose<const N: usize>(
        &self,
        weight: &Tensor,
        bias: Option<&Tensor>,
        options: &ConvOptions<N>,
    ) -> Result<Tensor> {
        self.convolution(weight, bias, options, true)
    }

    /// `conv_transpose` with 1 spatial dim.
    pub fn conv_transpose1d(&self, weight: &Tensor, bias: Option<&Tensor>, options: &ConvOptions<1>) -> Result<Tensor> {
        self.conv_transpose(weight, bias, options)
    }

    /// `conv_transpose` with 2 spatial dims.
    pub fn conv_transpose2d(&self, weight: &Tensor, bias: Option<&Tensor>, options: &ConvOptions<2>) -> Result<Tensor> {
        self.conv_transpose(weight, bias, options)
    }

    /// `conv_transpose` with 3 spatial dims.
    pub fn conv_transpose3d(&self, weight: &Tensor, bias: Option<&Tensor>, options: &ConvOptions<3>) -> Result<Tensor> {
        self.conv_transpose(weight, bias, options)
    }
}

/// The weight and bias of a layer, PyTorch's init: U(-1/sqrt(fan_in), 1/sqrt(fan_in)) (float32).
fn init_params(
    shape: &[i64],
    out_channels: i64,
    bias: bool,
    mut gen: Option<&mut Generator>,
) -> Result<(Tensor, Option<Tensor>)> {
    let fan_in = shape[1..].iter().product::<i64>().max(1);
    let bound = 1.0 / (fan_in as f64).sqrt();
    let weight = uniform_param(shape, bound, DType::Float32, gen.as_deref_mut())?;
    let bias = if bias { Some(uniform_param(&[out_channels], bound, DType::Float32, gen)?) } else { None };
    Ok((weight, bias))
}

/// N-d convolution layer (`N` spatial dims), like `torch.nn.Conv1d/2d/3d` with zero padding.
pub struct ConvNd<const N: usize> {
    /// `[out_channels, in_channels / groups, k...]`.
    pub weight: Tensor,
    /// `[out_channels]`, if any.
    pub bias: Option<Tensor>,
    /// Stride, padding, dilation and groups (output_padding unused).
    pub options: ConvOptions<N>,
}

/// 1-D convolution layer.
pub type Conv1d = ConvNd<1>;
/// 3-D convolution layer.
pub type Conv3d = ConvNd<3>;

impl<const N: usize> ConvNd<N> {
    /// A float32 layer with the given options (groups from `options`).
    pub fn new(
        in_channels: i64,
        out_channels: i64,
        kernel: [i64; N],
        options: ConvOptions<N>,
        bias: bool,
        gen: Option<&mut Generator>,
    ) -> Result<Self> {
        let mut shape = vec![out_channels, in_channels / options.groups.max(1)];
        shape.extend_from_slice(&kernel);
        let (weight, bias) = init_params(&shape, out_channels, bias, gen)?;
        Ok(ConvNd { weight, bias, options })
    }
}

impl<const N: usize> Module for ConvNd<N> {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.convolution(&self.weight, self.bias.as_ref(), &self.options, false)
    }
    fn parameters(&self) -> Vec<Tensor> {
        std::iter::once(self.weight.clone()).chain(self.bias.clone()).collect()
    }
}

/// N-d transposed convolution layer, like `torch.nn.ConvTranspose1d/2d/3d`.
pub struct ConvTransposeNd<const N: usize> {
    /// `[in_channels, out_channels / groups, k...]`.
    pub weight: Tensor,
    /// `[out_channels]`, if any.
    pub bias: Option<Tensor>,
    /// Stride, padding, dilation, output_padding and groups.
    pub options: ConvOptions<N>,
}

/// 1-D transposed convolution layer.
pub type ConvTranspose1d = ConvTransposeNd<1>;
/// 2-D transposed convolution layer.
pub type ConvTranspose2d = ConvTransposeNd<2>;
/// 3-D transposed convolution layer.
pub type ConvTranspose3d = ConvTransposeNd<3>;

impl<const N: usize> ConvTransposeNd<N> {
    /// A float32 layer with the given options.
    pub fn new(
        in_channels: i64,
        out_channels: i64,
        kernel: [i64; N],
        options: ConvOptions<N>,
        bias: bool,
        gen: Option<&mut Generator>,
    ) -> Result<Self> {
        let mut shape = vec![in_channels, out_channels / options.groups.max(1)];
        shape.extend_from_slice(&kernel);
        let (weight, bias) = init_params(&shape, out_channels, bias, gen)?;
        Ok(ConvTransposeNd { weight, bias, options })
    }
}

impl<const N: usize> Module for ConvTransposeNd<N> {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.convolution(&self.weight, self.bias.as_ref(), &self.options, true)
    }
    fn parameters(&self) -> Vec<Tensor> {
        std::iter::once(self.weight.clone()).chain(self.bias.clone()).collect()
    }
}
