//! Normalisation layers over the C ABI's fused ops: `layer_norm`, `group_norm` and `batch_norm` as tensor methods,
//! and the `BatchNorm` / `GroupNorm` modules (`LayerNorm` lives with the transformer layers in `attention.rs`).
use ctensor_sys as sys;

use crate::error::Result;
use crate::nn::Module;
use crate::tensor::{opt_raw, out1, Tensor};
use crate::types::DType;

impl Tensor {
    /// torch's `layer_norm`: normalised over the last dims, which must equal `normalized_shape` (biased
    /// variance), then `weight * x + bias` (each of `normalized_shape`, optional).
    pub fn layer_norm(&self, normalized_shape: &[i64], weight: Option<&Tensor>, bias: Option<&Tensor>, eps: f64)
        -> Result<Tensor> {
        out1(|o| unsafe {
            sys::ct_layer_norm(self.as_raw(), normalized_shape.as_ptr(), normalized_shape.len() as i32, opt_raw(weight),
                               opt_raw(bias), eps, o)
        })
    }

    /// torch's `group_norm` of `[N, C, *]`: each of `num_groups` groups of channels per sample normalised, then a
    /// per-channel `weight` / `bias` (`[C]`, optional).
    pub fn group_norm(&self, num_groups: i64, weight: Option<&Tensor>, bias: Option<&Tensor>, eps: f64)
        -> Result<Tensor> {
        out1(|o| unsafe { sys::ct_group_norm(self.as_raw(), num_groups, opt_raw(weight), opt_raw(bias), eps, o) })
    }

    /// torch's `batch_norm` of `[N, C, *]` per channel. Training: by the batch's statistics, and the running ones
    /// (when given) move by `momentum` in place (unbiased variance); eval: by the running statistics (required).
    #[allow(clippy::too_many_arguments)]
    pub fn batch_norm(
        &self,
        running_mean: Option<&Tensor>,
        running_var: Option<&Tensor>,
        weight: Option<&Tensor>,
        bias: Option<&Tensor>,
        training: bool,
        momentum: f64,
        eps: f64,
    ) -> Result<Tensor> {
        out1(|o| unsafe {
            sys::ct_batch_norm(self.as_raw(), opt_raw(running_mean), opt_raw(running_var), opt_raw(weight),
                               opt_raw(bias), training as i32, momentum, eps, o)
        })
    }
}

/// Batch normalisation of `[N, C, *]` input (torch's BatchNorm1d/2d/3d): `weight` ones, `bias` zeros, running
/// mean zeros and variance ones, updated while training with `momentum`.
pub struct BatchNorm {
    /// `[C]`.
    pub weight: Tensor,
    /// `[C]`.
    pub bias: Tensor,
    /// `[C]`, not trained.
    pub running_mean: Tensor,
    /// `[C]`, not trained.
    pub running_var: Tensor,
    /// Weight of the batch statistics in the running ones.
    pub momentum: f64,
    /// Added to the variance.
    pub eps: f64,
    /// Batch statistics (and running updates) when true, the running statistics otherwise.
    pub training: bool,
}

impl BatchNorm {
    /// For `num_features` channels (momentum 0.1, eps 1e-5, training).
    pub fn new(num_features: i64, dtype: DType) -> Result<BatchNorm> {
        Ok(BatchNorm {
            weight: Tensor::ones(&[num_features], dtype)?.requires_grad_(true)?,
            bias: Tensor::zeros(&[num_features], dtype)?.requires_grad_(true)?,
            running_mean: Tensor::zeros(&[num_features], dtype)?,
            running_var: Tensor::ones(&[num_features], dtype)?,
            momentum: 0.1,
            eps: 1e-5,
            training: true,
        })
    }
}

impl Module for BatchNorm {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.batch_norm(Some(&self.running_mean), Some(&self.running_var), Some(&self.weight), Some(&self.bias),
                     self.training, self.momentum, self.eps)
    }
    fn parameters(&self) -> Vec<Tensor> {
        vec![self.weight.clone(), self.bias.clone()]
    }
    fn set_training(&mut self, training: bool) {
        self.training = training;
    }
}

/// Group normalisation of `[N, C, *]` input (torch's GroupNorm): `weight` ones, `bias` zeros.
pub struct GroupNorm {
    /// Groups of channels (divides C).
    pub num_groups: i64,
    /// `[C]`.
    pub weight: Tensor,
    /// `[C]`.
    pub bias: Tensor,
    /// Added to the variance.
    pub eps: f64,
}

impl GroupNorm {
    /// `num_channels` channels in `num_groups` groups (eps 1e-5).
    pub fn new(num_groups: i64, num_channels: i64, dtype: DType) -> Result<GroupNorm> {
        Ok(GroupNorm {
            num_groups,
            weight: Tensor::ones(&[num_channels], dtype)?.requires_grad_(true)?,
            bias: Tensor::zeros(&[num_channels], dtype)?.requires_grad_(true)?,
            eps: 1e-5,
        })
    }
}

impl Module for GroupNorm {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.group_norm(self.num_groups, Some(&self.weight), Some(&self.bias), self.eps)
    }
    fn parameters(&self) -> Vec<Tensor> {
        vec![self.weight.clone(), self.bias.clone()]
    }
}
