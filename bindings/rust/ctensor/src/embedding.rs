//! Embedding with torch's options (`padding_idx`, `max_norm`, `scale_grad_by_freq`) and EmbeddingBag (sum, mean,
//! max over bags given by offsets or the rows of a 2-D index), as tensor methods on the weight and as modules.
use ctensor_sys as sys;

use crate::error::{check, ensure_abi, Result};
use crate::nn::Module;
use crate::random::Generator;
use crate::tensor::{opt_raw, out1, Tensor};
use crate::types::DType;

/// How [`Tensor::embedding_bag`] reduces a bag of rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbeddingBagMode {
    /// The sum of the rows (times per-sample weights when given).
    Sum,
    /// The mean of the rows (torch's default).
    Mean,
    /// The elementwise maximum (the gradient goes to the first maximum).
    Max,
}

impl EmbeddingBagMode {
    fn to_raw(self) -> i32 {
        match self {
            EmbeddingBagMode::Sum => sys::CT_EMBEDDING_BAG_SUM,
            EmbeddingBagMode::Mean => sys::CT_EMBEDDING_BAG_MEAN,
            EmbeddingBagMode::Max => sys::CT_EMBEDDING_BAG_MAX,
        }
    }
}

/// The options of [`Tensor::embedding_bag`] besides indices and offsets (torch's keyword arguments).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmbeddingBagOptions {
    /// The reduction (default mean).
    pub mode: EmbeddingBagMode,
    /// The last offset ends the last bag (offsets has bags + 1 entries).
    pub include_last_offset: bool,
    /// Rows equal to this index (negative: from the end) are left out of their bags.
    pub padding_idx: Option<i64>,
    /// Divides each row's gradient by its count in the indices (sum and mean).
    pub scale_grad_by_freq: bool,
}

impl Default for EmbeddingBagOptions {
    fn default() -> Self {
        EmbeddingBagOptions { mode: EmbeddingBagMode::Mean, include_last_offset: false, padding_idx: None, scale_grad_by_freq: false }
    }
}

impl Tensor {
    /// [`embedding`](Tensor::embedding) of this `[num, dim]` weight with torch's options: the row `padding_idx`
    /// (negative: from the end) gets no gradient; `scale_grad_by_freq` divides each row's gradient by its count.
    pub fn embedding_ex(&self, indices: &Tensor, padding_idx: Option<i64>, scale_grad_by_freq: bool) -> Result<Tensor> {
        let (p, has) = (padding_idx.unwrap_or(0), padding_idx.is_some() as i32);
        out1(|o| unsafe {
            sys::ct_embedding_ex(self.as_raw(), indices.as_raw(), p, has, scale_grad_by_freq as i32, o)
        })
    }

    /// torch's `embedding_renorm_`: the rows of this weight named in `indices` whose `norm_type`-norm exceeds
    /// `max_norm` are scaled down to it, in place and outside autograd.
    pub fn embedding_renorm_(&self, indices: &Tensor, max_norm: f64, norm_type: f64) -> Result<()> {
        ensure_abi()?;
        check(unsafe { sys::ct_embedding_renorm_(self.as_raw(), indices.as_raw(), max_norm, norm_type) })
    }

    /// Reduces bags of this weight's rows to `[bags, dim]`: `indices` 2-D (a bag per row, `offsets` None) or 1-D
    /// with `offsets` starting each bag; `per_sample_weights` (indices' shape, sum mode only) scale the rows.
    pub fn embedding_bag(
        &self,
        indices: &Tensor,
        offsets: Option<&Tensor>,
        per_sample_weights: Option<&Tensor>,
        options: EmbeddingBagOptions,
    ) -> Result<Tensor> {
        let (p, has) = (options.padding_idx.unwrap_or(0), options.padding_idx.is_some() as i32);
        out1(|o| unsafe {
            sys::ct_embedding_bag(
                self.as_raw(),
                indices.as_raw(),
                opt_raw(offsets),
                options.mode.to_raw(),
                opt_raw(per_sample_weights),
                options.include_last_offset as i32,
                p,
                has,
                options.scale_grad_by_freq as i32,
                o,
            )
        })
    }
}

/// A `[num_embeddings, embedding_dim]` float32 table drawn from N(0, 1), the `padding_idx` row zero.
fn table(num: i64, dim: i64, padding_idx: Option<i64>, gen: Option<&mut Generator>) -> Result<Tensor> {
    let w = Tensor::randn(&[num, dim], DType::Float32, gen)?;
    if let Some(p) = padding_idx {
        w.select(0, if p < 0 { p + num } else { p })?.fill_(0.0)?; // w does not require grad yet
    }
    w.requires_grad_(true)
}

/// A lookup table (torch's `nn.Embedding`): `forward(indices)` gives `indices.shape + [dim]`.
pub struct Embedding {
    /// `[num_embeddings, embedding_dim]`.
    pub weight: Tensor,
    /// The row that gets no gradient (zero at construction).
    pub padding_idx: Option<i64>,
    /// Renormalise looked-up rows above this norm first (in place).
    pub max_norm: Option<f64>,
    /// The norm of `max_norm` (2).
    pub norm_type: f64,
    /// Divide gradients by the rows' counts in each batch.
    pub scale_grad_by_freq: bool,
}

impl Embedding {
    /// A float32 table from N(0, 1) (the default generator unless `gen`), the `padding_idx` row zero.
    pub fn new(num_embeddings: i64, embedding_dim: i64, padding_idx: Option<i64>, gen: Option<&mut Generator>) -> Result<Embedding> {
        let weight = table(num_embeddings, embedding_dim, padding_idx, gen)?;
        Ok(Embedding { weight, padding_idx, max_norm: None, norm_type: 2.0, scale_grad_by_freq: false })
    }
}

impl Module for Embedding {
    fn forward(&self, indices: &Tensor) -> Result<Tensor> {
        if let Some(m) = self.max_norm {
            self.weight.embedding_renorm_(indices, m, self.norm_type)?;
        }
        self.weight.embedding_ex(indices, self.padding_idx, self.scale_grad_by_freq)
    }

    fn parameters(&self) -> Vec<Tensor> {
        vec![self.weight.clone()]
    }
}

/// Bags of embedding rows reduced by `options.mode` (torch's `nn.EmbeddingBag`); as a [`Module`] it takes 2-D
/// indices (a bag per row), [`forward_offsets`](EmbeddingBag::forward_offsets) takes 1-D indices and offsets.
pub struct EmbeddingBag {
    /// `[num_embeddings, embedding_dim]`.
    pub weight: Tensor,
    /// The reduction and its options.
    pub options: EmbeddingBagOptions,
    /// Renormalise looked-up rows above this norm first (in place).
    pub max_norm: Option<f64>,
    /// The norm of `max_norm` (2).
    pub norm_type: f64,
}

impl EmbeddingBag {
    /// A float32 table from N(0, 1) (the `padding_idx` row of `options` zero).
    pub fn new(num_embeddings: i64, embedding_dim: i64, options: EmbeddingBagOptions, gen: Option<&mut Generator>) -> Result<EmbeddingBag> {
        let weight = table(num_embeddings, embedding_dim, options.padding_idx, gen)?;
        Ok(EmbeddingBag { weight, options, max_norm: None, norm_type: 2.0 })
    }

    /// The bags of 1-D `indices` starting at `offsets`, optionally weighted per sample (sum mode).
    pub fn forward_offsets(&self, indices: &Tensor, offsets: &Tensor, per_sample_weights: Option<&Tensor>) -> Result<Tensor> {
        if let Some(m) = self.max_norm {
            self.weight.embedding_renorm_(indices, m, self.norm_type)?;
        }
        self.weight.embedding_bag(indices, Some(offsets), per_sample_weights, self.options)
    }
}

impl Module for EmbeddingBag {
    fn forward(&self, indices: &Tensor) -> Result<Tensor> {
        if let Some(m) = self.max_norm {
            self.weight.embedding_renorm_(indices, m, self.norm_type)?;
        }
        self.weight.embedding_bag(indices, None, None, self.options)
    }

    fn parameters(&self) -> Vec<Tensor> {
        vec![self.weight.clone()]
    }
}
