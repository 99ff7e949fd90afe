//! Neural networks: functional ops (linear, softmax, conv2d, pooling, dropout, embedding) as tensor
//! methods, losses as functions, and a small `Module` trait with Linear, Conv2d, activations, Flatten,
//! Dropout and Sequential. Parameters are initialised like PyTorch (uniform in +-1/sqrt(fan_in)). Pooling
//! layers with every option, the weighted/smoothed class losses and the further losses live in `pooling.rs`,
//! `class_losses.rs` and `losses.rs` and are re-exported here, as is `DistributedDataParallel` (`data_parallel.rs`).
use ctensor_sys as sys;

use crate::error::Result;
use crate::random::{gen_raw, Generator};
use crate::tensor::{opt_raw, out1, Tensor};
use crate::types::{DType, Reduction};

pub use crate::activations::{Activation, PRelu};
pub use crate::class_losses::{CrossEntropyLoss, NllLoss};
pub use crate::conv::{
    Conv1d, Conv3d, ConvNd, ConvOptions, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, ConvTransposeNd,
};
pub use crate::data_parallel::DistributedDataParallel;
pub use crate::embedding::{Embedding, EmbeddingBag};
pub use crate::module_hooks::{FullBackwardHook, ForwardHook, ForwardPreHook, Hooked, ModuleHookId};
pub use crate::resample::Upsample;
pub use crate::losses::{
    cosine_embedding_loss, ctc_loss, gaussian_nll_loss, hinge_embedding_loss, huber_loss, kl_div, kl_div_batchmean,
    l1_loss, margin_ranking_loss, multi_margin_loss, multilabel_soft_margin_loss, poisson_nll_loss, smooth_l1_loss,
    soft_margin_loss, triplet_margin_loss, CosineEmbeddingLoss, CtcLoss, GaussianNllLoss, HingeEmbeddingLoss,
    HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MultiLabelSoftMarginLoss, MultiMarginLoss, PoissonNllLoss,
    SmoothL1Loss, SoftMarginLoss, TripletMarginLoss,
};
pub use crate::pool_nd::PoolOptions;
pub use crate::pooling::{AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, MaxPool2d};

impl Tensor {
    /// `self @ weight^T + bias`; `weight` is `[out_features, in_features]`.
    pub fn linear(&self, weight: &Tensor, bias: Option<&Tensor>) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_linear(self.as_raw(), weight.as_raw(), opt_raw(bias), o) })
    }

    /// Softmax along `dim`.
    pub fn softmax(&self, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_softmax(self.as_raw(), dim, o) })
    }

    /// `log(softmax)` along `dim`, stable.
    pub fn log_softmax(&self, dim: i64) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_log_softmax(self.as_raw(), dim, o) })
    }

    /// Zeroes elements with probability `p` and scales the rest by `1/(1-p)` when `training`.
    pub fn dropout(&self, p: f64, training: bool, gen: Option<&mut Generator>) -> Result<Tensor> {
        let g = gen_raw(gen);
        out1(|o| unsafe { sys::ct_dropout(self.as_raw(), p, training as i32, g, o) })
    }

    /// Rows of this `[num, dim]` weight at integer `indices` (any shape): shape `indices.shape + [dim]`.
    pub fn embedding(&self, indices: &Tensor) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_embedding(self.as_raw(), indices.as_raw(), o) })
    }

    /// 2-D convolution of an NCHW input with `weight` `[O, C/groups, kH, kW]`; arrays are `[h, w]`.
    pub fn conv2d(
        &self,
        weight: &Tensor,
        bias: Option<&Tensor>,
        stride: [i64; 2],
        padding: [i64; 2],
        dilation: [i64; 2],
        groups: i64,
    ) -> Result<Tensor> {
        out1(|o| unsafe {
            sys::ct_conv2d(
                self.as_raw(),
                weight.as_raw(),
                opt_raw(bias),
                stride.as_ptr(),
                padding.as_ptr(),
                dilation.as_ptr(),
                groups,
                o,
            )
        })
    }

    /// 2-D max pooling, NCHW.
    pub fn max_pool2d(&self, kernel: [i64; 2], stride: [i64; 2], padding: [i64; 2]) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_max_pool2d(self.as_raw(), kernel.as_ptr(), stride.as_ptr(), padding.as_ptr(), o) })
    }

    /// 2-D average pooling, NCHW (padding counted in the divisor, like PyTorch's default).
    pub fn avg_pool2d(&self, kernel: [i64; 2], stride: [i64; 2], padding: [i64; 2]) -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_avg_pool2d(self.as_raw(), kernel.as_ptr(), stride.as_ptr(), padding.as_ptr(), o) })
    }
}

/// PyTorch's default `ignore_index` for cross entropy and NLL.
pub const DEFAULT_IGNORE_INDEX: i64 = -100;

/// Cross entropy of logits `[N, C]` (or `[C]`) and int64 class targets `[N]`.
pub fn cross_entropy(logits: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    cross_entropy_ignore(logits, target, reduction, DEFAULT_IGNORE_INDEX)
}

/// Cross entropy that skips targets equal to `ignore_index`.
pub fn cross_entropy_ignore(
    logits: &Tensor,
    target: &Tensor,
    reduction: Reduction,
    ignore_index: i64,
) -> Result<Tensor> {
    let r = reduction.to_raw();
    out1(|o| unsafe { sys::ct_cross_entropy(logits.as_raw(), target.as_raw(), r, ignore_index, o) })
}

/// Negative log likelihood of log-probabilities `[N, C]` and int64 targets `[N]`.
pub fn nll_loss(log_probs: &Tensor, target: &Tensor, reduction: Reduction, ignore_index: i64) -> Result<Tensor> {
    let r = reduction.to_raw();
    out1(|o| unsafe { sys::ct_nll_loss(log_probs.as_raw(), target.as_raw(), r, ignore_index, o) })
}

/// Mean squared error.
pub fn mse_loss(input: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    out1(|o| unsafe { sys::ct_mse_loss(input.as_raw(), target.as_raw(), reduction.to_raw(), o) })
}

/// Binary cross entropy of probabilities in `[0, 1]`.
pub fn binary_cross_entropy(probs: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    out1(|o| unsafe { sys::ct_binary_cross_entropy(probs.as_raw(), target.as_raw(), reduction.to_raw(), o) })
}

/// Binary cross entropy of logits (stable).
pub fn binary_cross_entropy_with_logits(logits: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    let r = reduction.to_raw();
    out1(|o| unsafe { sys::ct_binary_cross_entropy_with_logits(logits.as_raw(), target.as_raw(), r, o) })
}

/// A layer: a forward function and the tensors an optimizer should update.
pub trait Module {
    /// Applies the layer.
    fn forward(&self, x: &Tensor) -> Result<Tensor>;
    /// The trainable parameters (new references to the same tensors).
    fn parameters(&self) -> Vec<Tensor> {
        Vec::new()
    }
    /// Switches training behaviour (dropout) on or off.
    fn set_training(&mut self, _training: bool) {}
}

/// A parameter of `shape` drawn uniformly from `[-bound, bound)`, requiring grad.
pub(crate) fn uniform_param(shape: &[i64], bound: f64, dtype: DType, gen: Option<&mut Generator>) -> Result<Tensor> {
    let u = Tensor::rand(shape, dtype, gen)?;
    let scaled = (&u * (2.0 * bound))?;
    (&scaled - bound)?.requires_grad_(true)
}

/// `y = x @ weight^T + bias`.
pub struct Linear {
    /// `[out_features, in_features]`.
    pub weight: Tensor,
    /// `[out_features]`, if any.
    pub bias: Option<Tensor>,
}

impl Linear {
    /// A float32 layer with bias, initialised from the default generator.
    pub fn new(in_features: i64, out_features: i64) -> Result<Linear> {
        Linear::with_options(in_features, out_features, true, DType::Float32, None)
    }

    /// A layer with a choice of bias, dtype and generator.
    pub fn with_options(
        in_features: i64,
        out_features: i64,
        bias: bool,
        dtype: DType,
        mut gen: Option<&mut Generator>,
    ) -> Result<Linear> {
        let bound = 1.0 / (in_features.max(1) as f64).sqrt();
        let weight = uniform_param(&[out_features, in_features], bound, dtype, gen.as_deref_mut())?;
        let bias = if bias { Some(uniform_param(&[out_features], bound, dtype, gen)?) } else { None };
        Ok(Linear { weight, bias })
    }
}

impl Module for Linear {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.linear(&self.weight, self.bias.as_ref())
    }
    fn parameters(&self) -> Vec<Tensor> {
        std::iter::once(self.weight.clone()).chain(self.bias.clone()).collect()
    }
}

/// 2-D convolution layer (NCHW).
pub struct Conv2d {
    /// `[out_channels, in_channels / groups, kH, kW]`.
    pub weight: Tensor,
    /// `[out_channels]`, if any.
    pub bias: Option<Tensor>,
    /// `[h, w]` step between windows.
    pub stride: [i64; 2],
    /// `[h, w]` implicit zero padding on both sides.
    pub padding: [i64; 2],
    /// `[h, w]` spacing between kernel elements.
    pub dilation: [i64; 2],
    /// Input and output channels are split into this many groups.
    pub groups: i64,
}

impl Conv2d {
    /// A float32 layer with bias, stride 1, no padding, dilation 1, one group.
    pub fn new(in_channels: i64, out_channels: i64, kernel: [i64; 2]) -> Result<Conv2d> {
        Conv2d::with_options(in_channels, out_channels, kernel, [1, 1], [0, 0], [1, 1], 1, true, None)
    }

    /// A layer with every option (float32).
    #[allow(clippy::too_many_arguments)]
    pub fn with_options(
        in_channels: i64,
        out_channels: i64,
        kernel: [i64; 2],
        stride: [i64; 2],
        padding: [i64; 2],
        dilation: [i64; 2],
        groups: i64,
        bias: bool,
        mut gen: Option<&mut Generator>,
    ) -> Result<Conv2d> {
        let per_group = in_channels / groups.max(1);
        let fan_in = (per_group * kernel[0] * kernel[1]).max(1);
        let bound = 1.0 / (fan_in as f64).sqrt();
        let shape = [out_channels, per_group, kernel[0], kernel[1]];
        let weight = uniform_param(&shape, bound, DType::Float32, gen.as_deref_mut())?;
        let bias = if bias { Some(uniform_param(&[out_channels], bound, DType::Float32, gen)?) } else { None };
        Ok(Conv2d { weight, bias, stride, padding, dilation, groups })
    }
}

impl Module for Conv2d {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.conv2d(&self.weight, self.bias.as_ref(), self.stride, self.padding, self.dilation, self.groups)
    }
    fn parameters(&self) -> Vec<Tensor> {
        std::iter::once(self.weight.clone()).chain(self.bias.clone()).collect()
    }
}

macro_rules! activation {
    ($(#[$doc:meta])* $name:ident, $method:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name;
        impl Module for $name {
            fn forward(&self, x: &Tensor) -> Result<Tensor> {
                x.$method()
            }
        }
    };
}
activation!(
    /// `max(x, 0)`.
    ReLU, relu);
activation!(
    /// `1 / (1 + e^-x)`.
    Sigmoid, sigmoid);
activation!(
    /// `tanh(x)`.
    Tanh, tanh);
activation!(
    /// `x * Phi(x)`.
    GELU, gelu);
activation!(
    /// ELU scaled with the self-normalising constants.
    SELU, selu);
activation!(
    /// `min(max(x, 0), 6)`.
    ReLU6, relu6);
activation!(
    /// `clamp(x / 6 + 1/2, 0, 1)`.
    Hardsigmoid, hardsigmoid);
activation!(
    /// `x * clamp(x + 3, 0, 6) / 6`.
    Hardswish, hardswish);
activation!(
    /// `x * tanh(softplus(x))`.
    Mish, mish);
activation!(
    /// `log(sigmoid(x))`.
    LogSigmoid, log_sigmoid);
activation!(
    /// `x / (1 + |x|)`.
    Softsign, softsign);
activation!(
    /// `x - tanh(x)`.
    Tanhshrink, tanhshrink);

/// Flattens every dim after the first (`[N, ...] -> [N, prod(...)]`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Flatten;

impl Module for Flatten {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.flatten(1, -1)
    }
}

/// Dropout with probability `p` while training; identity otherwise (starts in training mode).
pub struct Dropout {
    /// Probability of zeroing an element.
    pub p: f64,
    /// Dropout is applied only while training.
    pub training: bool,
}

impl Dropout {
    /// Dropout with probability `p`, in training mode.
    pub fn new(p: f64) -> Dropout {
        Dropout { p, training: true }
    }
}

impl Module for Dropout {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.dropout(self.p, self.training, None)
    }
    fn set_training(&mut self, training: bool) {
        self.training = training;
    }
}

/// Layers applied in order.
///
/// ```
/// use ctensor::nn::{Linear, Module, ReLU, Sequential};
/// let model = Sequential::new().add(Linear::new(784, 128)?).add(ReLU).add(Linear::new(128, 10)?);
/// assert_eq!(model.parameters().len(), 4);
/// # Ok::<(), ctensor::Error>(())
/// ```
#[derive(Default)]
pub struct Sequential {
    layers: Vec<Box<dyn Module + Send + Sync>>,
}

impl Sequential {
    /// No layers yet.
    pub fn new() -> Sequential {
        Sequential::default()
    }

    /// Appends a layer (builder style).
    #[allow(clippy::should_implement_trait)]
    pub fn add<M: Module + Send + Sync + 'static>(mut self, layer: M) -> Sequential {
        self.layers.push(Box::new(layer));
        self
    }

    /// Number of layers.
    pub fn len(&self) -> usize {
        self.layers.len()
    }

    /// True without layers.
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }
}

impl Module for Sequential {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let mut y = x.clone();
        for layer in &self.layers {
            y = layer.forward(&y)?;
        }
        Ok(y)
    }
    fn parameters(&self) -> Vec<Tensor> {
        self.layers.iter().flat_map(|l| l.parameters()).collect()
    }
    fn set_training(&mut self, training: bool) {
        self.layers.iter_mut().for_each(|l| l.set_training(training));
    }
}
