//! Attention: `scaled_dot_product_attention` (a tensor method over the fused C op), `MultiheadAttention`
//! (torch's parameters: `in_proj_weight`, `in_proj_bias`, `out_proj`), `LayerNorm`, and
//! `TransformerEncoderLayer` / `TransformerEncoder` (post- or pre-norm, relu or gelu), as in PyTorch.
use ctensor_sys as sys;

use crate::error::{check, Result};
use crate::nn::{Linear, Module};
use crate::random::{gen_raw, Generator};
use crate::tensor::{opt_raw, out1, Tensor};
use crate::types::DType;

impl Tensor {
    /// `softmax(self @ k^T * scale + mask) @ v` for query `self` `[..., L, E]`, `k` `[..., S, E]`, `v`
    /// `[..., S, Ev]`. `mask`: bool (true = attend) or floating (added), broadcastable to `[..., L, S]`;
    /// `is_causal` masks key `j > i`; `scale` `None` = `1/sqrt(E)`; `dropout_p` of the probabilities dropped.
    #[allow(clippy::too_many_arguments)]
    pub fn scaled_dot_product_attention(
        &self,
        k: &Tensor,
        v: &Tensor,
        mask: Option<&Tensor>,
        dropout_p: f64,
        is_causal: bool,
        scale: Option<f64>,
        gen: Option<&mut Generator>,
    ) -> Result<Tensor> {
        let g = gen_raw(gen);
        let s = scale.unwrap_or(f64::NAN);
        out1(|o| unsafe {
            sys::ct_scaled_dot_product_attention(
                self.as_raw(),
                k.as_raw(),
                v.as_raw(),
                opt_raw(mask),
                dropout_p,
                is_causal as i32,
                s,
                g,
                o,
            )
        })
    }
}

/// A parameter of `shape` uniform in `[-bound, bound)`, requiring grad.
fn uniform(shape: &[i64], bound: f64, dtype: DType) -> Result<Tensor> {
    let u = Tensor::rand(shape, dtype, None)?;
    ((&u * (2.0 * bound))? - bound)?.requires_grad_(true)
}

/// Layer normalisation over the last dim with a learnt scale (`weight`, ones) and shift (`bias`, zeros).
pub struct LayerNorm {
    /// `[d]`.
    pub weight: Tensor,
    /// `[d]`.
    pub bias: Tensor,
    /// Added to the variance.
    pub eps: f64,
}

impl LayerNorm {
    /// Over a last dim of size `d`.
    pub fn new(d: i64, eps: f64, dtype: DType) -> Result<LayerNorm> {
        Ok(LayerNorm {
            weight: Tensor::ones(&[d], dtype)?.requires_grad_(true)?,
            bias: Tensor::zeros(&[d], dtype)?.requires_grad_(true)?,
            eps,
        })
    }
}

impl Module for LayerNorm {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let d = self.weight.shape();
        x.layer_norm(&d, Some(&self.weight), Some(&self.bias), self.eps)
    }
    fn parameters(&self) -> Vec<Tensor> {
        vec![self.weight.clone(), self.bias.clone()]
    }
}

/// Multi-head attention with a packed input projection (`embed_dim` for query, key and value).
pub struct MultiheadAttention {
    /// Model width E.
    pub embed_dim: i64,
    /// Heads; E must be divisible by it.
    pub num_heads: i64,
    /// `[3E, E]`, xavier-uniform.
    pub in_proj_weight: Tensor,
    /// `[3E]`, zeros.
    pub in_proj_bias: Tensor,
    /// `[E, E]` with bias (zeros).
    pub out_proj: Linear,
    /// Dropout of the attention probabilities while training.
    pub dropout: f64,
    /// Inputs `[N, L, E]` when true, `[L, N, E]` otherwise.
    pub batch_first: bool,
    /// Dropout applies only while training.
    pub training: bool,
}

impl MultiheadAttention {
    /// torch.nn.MultiheadAttention(embed_dim, num_heads, dropout, batch_first=...) in `dtype`.
    pub fn new(embed_dim: i64, num_heads: i64, dropout: f64, batch_first: bool, dtype: DType) -> Result<Self> {
        let bound = (6.0 / (4 * embed_dim).max(1) as f64).sqrt();
        let mut out_proj = Linear::with_options(embed_dim, embed_dim, true, dtype, None)?;
        out_proj.bias = Some(Tensor::zeros(&[embed_dim], dtype)?.requires_grad_(true)?);
        Ok(MultiheadAttention {
            embed_dim,
            num_heads,
            in_proj_weight: uniform(&[3 * embed_dim, embed_dim], bound, dtype)?,
            in_proj_bias: Tensor::zeros(&[3 * embed_dim], dtype)?.requires_grad_(true)?,
            out_proj,
            dropout,
            batch_first,
            training: true,
        })
    }

    /// Attention of `query` over `key`/`value` with optional masks (bool: true = not allowed; floating: added),
    /// `key_padding_mask` `[N, S]`, `attn_mask` `[L, S]` or `[N * heads, L, S]`. Returns the output and, with
    /// `need_weights`, the head-averaged weights `[N, L, S]`.
    pub fn forward_qkv(
        &self,
        query: &Tensor,
        key: &Tensor,
        value: &Tensor,
        key_padding_mask: Option<&Tensor>,
        attn_mask: Option<&Tensor>,
        need_weights: bool,
    ) -> Result<(Tensor, Option<Tensor>)> {
        let batched = query.dim() == 3;
        let swap = |t: &Tensor| if self.batch_first && batched { t.transpose(0, 1) } else { Ok(t.clone()) };
        let (q, k, v) = (swap(query)?, swap(key)?, swap(value)?);
        let (out, weights) = multi_head_attention_forward(
            &q,
            &k,
            &v,
            self.num_heads,
            &self.in_proj_weight,
            Some(&self.in_proj_bias),
            &self.out_proj.weight,
            self.out_proj.bias.as_ref(),
            MhaOptions { key_padding_mask, attn_mask, need_weights, dropout_p: self.dropout, training: self.training },
        )?;
        Ok((swap(&out)?, weights))
    }
}

impl Module for MultiheadAttention {
    /// Self-attention of `x` without masks.
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        Ok(self.forward_qkv(x, x, x, None, None, false)?.0)
    }
    fn parameters(&self) -> Vec<Tensor> {
        let mut p = vec![self.in_proj_weight.clone(), self.in_proj_bias.clone()];
        p.extend(self.out_proj.parameters());
        p
    }
    fn set_training(&mut self, training: bool) {
        self.training = training;
    }
}

/// The optional arguments of [`multi_head_attention_forward`].
#[derive(Clone, Copy, Default)]
pub struct MhaOptions<'a> {
    /// `[N, S]`; bool: true = not allowed; floating: added.
    pub key_padding_mask: Option<&'a Tensor>,
    /// `[L, S]` or `[N * heads, L, S]`; bool: true = not allowed; floating: added.
    pub attn_mask: Option<&'a Tensor>,
    /// Return the head-averaged attention weights `[N, L, S]`.
    pub need_weights: bool,
    /// Dropout of the probabilities while `training`.
    pub dropout_p: f64,
    /// Dropout applies only when true.
    pub training: bool,
}

/// torch's `F.multi_head_attention_forward` with a packed in-projection, seq-first: query `[L, N, E]`, key and
/// value `[S, N, E]`, `in_proj_weight` `[3E, E]`, `out_proj_weight` `[E, E]`. Returns the output `[L, N, E]` and
/// the weights when `opts.need_weights`.
#[allow(clippy::too_many_arguments)]
pub fn multi_head_attention_forward(
    query: &Tensor,
    key: &Tensor,
    value: &Tensor,
    num_heads: i64,
    in_proj_weight: &Tensor,
    in_proj_bias: Option<&Tensor>,
    out_proj_weight: &Tensor,
    out_proj_bias: Option<&Tensor>,
    opts: MhaOptions,
) -> Result<(Tensor, Option<Tensor>)> {
    let null = std::ptr::null_mut;
    let mut out: sys::ct_tensor = null();
    let mut weights: sys::ct_tensor = null();
    crate::error::ensure_abi()?;
    check(unsafe {
        sys::ct_multi_head_attention_forward(
            query.as_raw(),
            key.as_raw(),
            value.as_raw(),
            num_heads,
            in_proj_weight.as_raw(),
            opt_raw(in_proj_bias),
            null(),
            null(),
            0,
            opts.dropout_p,
            out_proj_weight.as_raw(),
            opt_raw(out_proj_bias),
            opts.training as i32,
            opt_raw(opts.key_padding_mask),
            opts.need_weights as i32,
            opt_raw(opts.attn_mask),
            null(),
            null(),
            null(),
            1,
            0,
            std::ptr::null_mut(),
            &mut out,
            &mut weights,
        )
    })?;
    // SAFETY: both are new references from the call above (weights NULL without need_weights).
    let out = unsafe { Tensor::from_raw(out) };
    let weights = if weights.is_null() { None } else { Some(unsafe { Tensor::from_raw(weights) }) };
    Ok((out, weights))
}

/// The feed-forward block's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedForwardActivation {
    /// max(x, 0).
    Relu,
    /// The exact (erf) GELU.
    Gelu,
}

/// Self-attention and a feed-forward block, each with dropout and a residual, normalised after each block
/// (or before, with `norm_first`), as torch.nn.TransformerEncoderLayer.
pub struct TransformerEncoderLayer {
    /// The self-attention.
    pub self_attn: MultiheadAttention,
    /// `d_model -> dim_feedforward`.
    pub linear1: Linear,
    /// `dim_feedforward -> d_model`.
    pub linear2: Linear,
    /// After (or before) the attention block.
    pub norm1: LayerNorm,
    /// After (or before) the feed-forward block.
    pub norm2: LayerNorm,
    /// Dropout probability of the blocks.
    pub dropout: f64,
    /// Pre-norm when true.
    pub norm_first: bool,
    /// Of the feed-forward block.
    pub activation: FeedForwardActivation,
    /// Dropout applies only while training.
    pub training: bool,
}

impl TransformerEncoderLayer {
    /// torch.nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
    /// layer_norm_eps = 1e-5, batch_first, norm_first) in `dtype`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        d_model: i64,
        nhead: i64,
        dim_feedforward: i64,
        dropout: f64,
        activation: FeedForwardActivation,
        batch_first: bool,
        norm_first: bool,
        dtype: DType,
    ) -> Result<Self> {
        Ok(TransformerEncoderLayer {
            self_attn: MultiheadAttention::new(d_model, nhead, dropout, batch_first, dtype)?,
            linear1: Linear::with_options(d_model, dim_feedforward, true, dtype, None)?,
            linear2: Linear::with_options(dim_feedforward, d_model, true, dtype, None)?,
            norm1: LayerNorm::new(d_model, 1e-5, dtype)?,
            norm2: LayerNorm::new(d_model, 1e-5, dtype)?,
            dropout,
            norm_first,
            activation,
            training: true,
        })
    }

    fn drop(&self, x: &Tensor) -> Result<Tensor> {
        x.dropout(self.dropout, self.training, None)
    }

    fn attention_block(&self, x: &Tensor, mask: Option<&Tensor>, kpm: Option<&Tensor>) -> Result<Tensor> {
        self.drop(&self.self_attn.forward_qkv(x, x, x, kpm, mask, false)?.0)
    }

    fn feed_forward(&self, x: &Tensor) -> Result<Tensor> {
        let h = self.linear1.forward(x)?;
        let h = match self.activation {
            FeedForwardActivation::Relu => h.relu()?,
            FeedForwardActivation::Gelu => h.gelu()?,
        };
        self.drop(&self.linear2.forward(&self.drop(&h)?)?)
    }

    /// The layer with an optional `mask` (`[L, L]`) and `key_padding_mask` (`[N, L]`).
    pub fn forward_masked(&self, x: &Tensor, mask: Option<&Tensor>, kpm: Option<&Tensor>) -> Result<Tensor> {
        if self.norm_first {
            let x = (x + self.attention_block(&self.norm1.forward(x)?, mask, kpm)?)?;
            &x + self.feed_forward(&self.norm2.forward(&x)?)?
        } else {
            let x = self.norm1.forward(&(x + self.attention_block(x, mask, kpm)?)?)?;
            self.norm2.forward(&(&x + self.feed_forward(&x)?)?)
        }
    }
}

impl Module for TransformerEncoderLayer {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        self.forward_masked(x, None, None)
    }
    fn parameters(&self) -> Vec<Tensor> {
        let mut p = self.self_attn.parameters();
        for m in [&self.linear1 as &dyn Module, &self.linear2, &self.norm1, &self.norm2] {
            p.extend(m.parameters());
        }
        p
    }
    fn set_training(&mut self, training: bool) {
        self.training = training;
        self.self_attn.set_training(training);
    }
}

/// A stack of encoder layers and an optional final norm.
pub struct TransformerEncoder {
    /// Applied in order.
    pub layers: Vec<TransformerEncoderLayer>,
    /// After the last layer.
    pub norm: Option<LayerNorm>,
}

impl TransformerEncoder {
    /// The stack with optional masks passed to every layer.
    pub fn forward_masked(&self, x: &Tensor, mask: Option<&Tensor>, kpm: Option<&Tensor>) -> Result<Tensor> {
        let mut h = x.clone();
        for layer in &self.layers {
            h = layer.forward_masked(&h, mask, kpm)?;
        }
        match &self.norm {
            Some(n) => n.forward(&h),
            None => Ok(h),
        }
    }
}

impl Module for TransformerEncoder {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        self.forward_masked(x, None, None)
    }
    fn parameters(&self) -> Vec<Tensor> {
        let mut p: Vec<Tensor> = self.layers.iter().flat_map(|l| l.parameters()).collect();
        if let Some(n) = &self.norm {
            p.extend(n.parameters());
        }
        p
    }
    fn set_training(&mut self, training: bool) {
        for l in &mut self.layers {
            l.set_training(training);
        }
    }
}
