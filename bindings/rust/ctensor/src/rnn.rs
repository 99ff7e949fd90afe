//! Recurrent nets (issue 14): the fused stack [`rnn`] and one step [`rnn_cell`] over `ct_rnn` / `ct_rnn_cell`,
//! the layers [`Rnn`] (RNN tanh/relu, LSTM with optional projection, GRU; multi-layer, bidirectional, batch_first,
//! dropout between layers) and [`RnnCell`], and packed sequences ([`PackedSequence`], [`pack_padded_sequence`],
//! [`pad_packed_sequence`], [`pad_sequence`]). Parameter names, order, shapes and initialisation
//! (uniform in +-1/sqrt(hidden_size)) are torch's, so weights move between the two by name.
use ctensor_sys as sys;

use crate::error::{Error, Result};
use crate::nn::uniform_param;
use crate::random::{gen_raw, Generator};
use crate::tensor::{opt_raw, Tensor};
use crate::types::{DType, Device};

/// The recurrence of a layer or cell (torch's cudnn numbering, `CT_RNN_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RnnMode {
    /// `h' = relu(W_ih x + b_ih + W_hh h + b_hh)`
    RnnRelu = 0,
    /// `h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`
    RnnTanh = 1,
    /// gates i, f, g, o
    Lstm = 2,
    /// gates r, z, n
    Gru = 3,
}

impl RnnMode {
    fn gates(self) -> i64 {
        match self {
            RnnMode::Lstm => 4,
            RnnMode::Gru => 3,
            _ => 1,
        }
    }
}

/// Outputs of [`rnn`]: `out`, `hy`, and `cy` for LSTM.
pub type RnnOutput = (Tensor, Tensor, Option<Tensor>);

fn take(raw: sys::ct_tensor) -> Option<Tensor> {
    if raw.is_null() {
        None
    } else {
        Some(unsafe { Tensor::from_raw(raw) })
    }
}

/// The fused stack (torch's `_VF.lstm` / `gru` / `rnn_tanh` / `rnn_relu`): `weights` in torch's order (per layer
/// and direction: w_ih, w_hh, then b_ih, b_hh when `has_biases`, then w_hr when `proj_size > 0`). `x` is
/// `[T, B, I]` (`[B, T, I]` when `batch_first`) or, with `batch_sizes`, packed rows `[sum(batch_sizes), I]`.
#[allow(clippy::too_many_arguments)]
pub fn rnn(
    mode: RnnMode,
    x: &Tensor,
    hx: Option<&Tensor>,
    cx: Option<&Tensor>,
    weights: &[&Tensor],
    has_biases: bool,
    num_layers: i64,
    dropout: f64,
    train: bool,
    bidirectional: bool,
    batch_first: bool,
    proj_size: i64,
    batch_sizes: Option<&[i64]>,
    gen: Option<&mut Generator>,
) -> Result<RnnOutput> {
    crate::error::ensure_abi()?;
    let raws: Vec<sys::ct_tensor> = weights.iter().map(|w| w.as_raw()).collect();
    let n = i32::try_from(raws.len()).map_err(|_| Error::InvalidArgument("rnn: too many weights".into()))?;
    let (bs, nbs) = batch_sizes.map_or((std::ptr::null(), 0), |b| (b.as_ptr(), b.len() as i64));
    let (mut out, mut hy, mut cy) = (std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut());
    crate::error::check(unsafe {
        sys::ct_rnn(
            mode as i32,
            x.as_raw(),
            opt_raw(hx),
            opt_raw(cx),
            raws.as_ptr(),
            n,
            has_biases as i32,
            num_layers,
            dropout,
            train as i32,
            bidirectional as i32,
            batch_first as i32,
            proj_size,
            bs,
            nbs,
            gen_raw(gen),
            &mut out,
            &mut hy,
            &mut cy,
        )
    })?;
    let out = take(out).expect("ct_rnn set out");
    let hy = take(hy).expect("ct_rnn set hy");
    Ok((out, hy, take(cy)))
}

/// One step of a cell: `x` `[B, I]` or `[I]`; `hx` / `cx` (LSTM) `[B, H]` or `[H]` or None (zeros). Returns
/// `hy`, and `cy` for LSTM.
#[allow(clippy::too_many_arguments)]
pub fn rnn_cell(
    mode: RnnMode,
    x: &Tensor,
    hx: Option<&Tensor>,
    cx: Option<&Tensor>,
    w_ih: &Tensor,
    w_hh: &Tensor,
    b_ih: Option<&Tensor>,
    b_hh: Option<&Tensor>,
) -> Result<(Tensor, Option<Tensor>)> {
    crate::error::ensure_abi()?;
    let (mut hy, mut cy) = (std::ptr::null_mut(), std::ptr::null_mut());
    crate::error::check(unsafe {
        sys::ct_rnn_cell(
            mode as i32,
            x.as_raw(),
            opt_raw(hx),
            opt_raw(cx),
            w_ih.as_raw(),
            w_hh.as_raw(),
            opt_raw(b_ih),
            opt_raw(b_hh),
            &mut hy,
            &mut cy,
        )
    })?;
    Ok((take(hy).expect("ct_rnn_cell set hy"), take(cy)))
}

/// Options of an [`Rnn`] stack (torch's defaults: 1 layer, bias, time-major, no dropout, one direction).
#[derive(Clone, Debug)]
pub struct RnnOptions {
    pub num_layers: i64,
    pub bias: bool,
    pub batch_first: bool,
    pub dropout: f64,
    pub bidirectional: bool,
    /// LSTM only: project h to this size (0 = none).
    pub proj_size: i64,
    pub dtype: DType,
}

impl Default for RnnOptions {
    fn default() -> Self {
        RnnOptions {
            num_layers: 1,
            bias: true,
            batch_first: false,
            dropout: 0.0,
            bidirectional: false,
            proj_size: 0,
            dtype: DType::Float32,
        }
    }
}

/// nn.RNN / nn.LSTM / nn.GRU: a stack of fused layers with torch-named parameters.
pub struct Rnn {
    pub mode: RnnMode,
    pub options: RnnOptions,
    /// `(name, tensor)` in torch's order (`weight_ih_l0`, `weight_hh_l0`, `bias_ih_l0`, ..., `weight_hr_l0_reverse`).
    pub params: Vec<(String, Tensor)>,
    pub training: bool,
}

impl Rnn {
    /// A stack of `mode` over `input_size` features with `hidden_size` units.
    pub fn new(mode: RnnMode, input_size: i64, hidden_size: i64, options: RnnOptions) -> Result<Rnn> {
        Rnn::with_generator(mode, input_size, hidden_size, options, None)
    }

    /// Like [`Rnn::new`], drawing the initial weights from `gen`.
    pub fn with_generator(
        mode: RnnMode,
        input_size: i64,
        hidden_size: i64,
        options: RnnOptions,
        mut gen: Option<&mut Generator>,
    ) -> Result<Rnn> {
        let o = &options;
        if hidden_size <= 0 || o.num_layers <= 0 {
            return Err(Error::InvalidArgument(format!(
                "rnn: hidden_size and num_layers must be greater than 0, got {} and {}",
                hidden_size, o.num_layers
            )));
        }
        if o.proj_size < 0 || o.proj_size >= hidden_size || (o.proj_size > 0 && mode != RnnMode::Lstm) {
            return Err(Error::InvalidArgument(format!(
                "rnn: proj_size {} must be in [0, hidden_size {}) and is only for LSTM",
                o.proj_size, hidden_size
            )));
        }
        let bound = 1.0 / (hidden_size as f64).sqrt();
        let gate = mode.gates() * hidden_size;
        let real = if o.proj_size > 0 { o.proj_size } else { hidden_size };
        let dirs = if o.bidirectional { 2 } else { 1 };
        let mut params = Vec::new();
        for layer in 0..o.num_layers {
            for d in 0..dirs {
                let input = if layer == 0 { input_size } else { real * dirs };
                let mut shapes = vec![("weight_ih", vec![gate, input]), ("weight_hh", vec![gate, real])];
                if o.bias {
                    shapes.push(("bias_ih", vec![gate]));
                    shapes.push(("bias_hh", vec![gate]));
                }
                if o.proj_size > 0 {
                    shapes.push(("weight_hr", vec![o.proj_size, hidden_size]));
                }
                for (kind, shape) in shapes {
                    let name = format!("{}_l{}{}", kind, layer, if d == 1 { "_reverse" } else { "" });
                    params.push((name, uniform_param(&shape, bound, o.dtype, gen.as_deref_mut())?));
                }
            }
        }
        Ok(Rnn { mode, options, params, training: true })
    }

    /// The parameter called `name` (torch's name), if any.
    pub fn param(&self, name: &str) -> Option<&Tensor> {
        self.params.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    /// All parameters, in torch's order.
    pub fn parameters(&self) -> Vec<Tensor> {
        self.params.iter().map(|(_, t)| t.clone()).collect()
    }

    fn run(&self, x: &Tensor, hx: Option<&Tensor>, cx: Option<&Tensor>, bs: Option<&[i64]>) -> Result<RnnOutput> {
        let w: Vec<&Tensor> = self.params.iter().map(|(_, t)| t).collect();
        let o = &self.options;
        let batch_first = o.batch_first && bs.is_none();
        rnn(
            self.mode,
            x,
            hx,
            cx,
            &w,
            o.bias,
            o.num_layers,
            o.dropout,
            self.training,
            o.bidirectional,
            batch_first,
            o.proj_size,
            bs,
            None,
        )
    }

    /// Runs the stack over a padded batch: `(output, h_n, c_n for LSTM)`.
    pub fn forward(&self, x: &Tensor, hx: Option<&Tensor>, cx: Option<&Tensor>) -> Result<RnnOutput> {
        self.run(x, hx, cx, None)
    }

    /// Runs the stack over a packed batch; states are in the caller's batch order, as torch's.
    pub fn forward_packed(
        &self,
        input: &PackedSequence,
        hx: Option<&Tensor>,
        cx: Option<&Tensor>,
    ) -> Result<(PackedSequence, Tensor, Option<Tensor>)> {
        let sort = |t: Option<&Tensor>| -> Result<Option<Tensor>> {
            match (t, &input.sorted_indices) {
                (Some(t), Some(idx)) => Ok(Some(t.index_select(1, idx)?)),
                (Some(t), None) => Ok(Some(t.clone())),
                _ => Ok(None),
            }
        };
        let (h, c) = (sort(hx)?, sort(cx)?);
        let (out, mut hy, mut cy) = self.run(&input.data, h.as_ref(), c.as_ref(), Some(&input.batch_sizes))?;
        if let Some(idx) = &input.unsorted_indices {
            hy = hy.index_select(1, idx)?;
            cy = cy.map(|c| c.index_select(1, idx)).transpose()?;
        }
        let packed = PackedSequence {
            data: out,
            batch_sizes: input.batch_sizes.clone(),
            sorted_indices: input.sorted_indices.clone(),
            unsorted_indices: input.unsorted_indices.clone(),
        };
        Ok((packed, hy, cy))
    }
}

/// nn.RNNCell / nn.LSTMCell / nn.GRUCell: one step with torch-named parameters.
pub struct RnnCell {
    pub mode: RnnMode,
    pub weight_ih: Tensor,
    pub weight_hh: Tensor,
    pub bias_ih: Option<Tensor>,
    pub bias_hh: Option<Tensor>,
}

impl RnnCell {
    /// A cell of `mode`, float32 or float64, initialised uniformly in +-1/sqrt(hidden_size).
    pub fn new(mode: RnnMode, input_size: i64, hidden_size: i64, bias: bool, dtype: DType) -> Result<RnnCell> {
        let bound = 1.0 / (hidden_size.max(1) as f64).sqrt();
        let g = mode.gates() * hidden_size;
        let weight_ih = uniform_param(&[g, input_size], bound, dtype, None)?;
        let weight_hh = uniform_param(&[g, hidden_size], bound, dtype, None)?;
        let (bias_ih, bias_hh) = if bias {
            (Some(uniform_param(&[g], bound, dtype, None)?), Some(uniform_param(&[g], bound, dtype, None)?))
        } else {
            (None, None)
        };
        Ok(RnnCell { mode, weight_ih, weight_hh, bias_ih, bias_hh })
    }

    /// One step: `(h', c' for LSTM)`.
    pub fn forward(&self, x: &Tensor, hx: Option<&Tensor>, cx: Option<&Tensor>) -> Result<(Tensor, Option<Tensor>)> {
        rnn_cell(self.mode, x, hx, cx, &self.weight_ih, &self.weight_hh, self.bias_ih.as_ref(), self.bias_hh.as_ref())
    }
}

/// A packed batch (torch.nn.utils.rnn.PackedSequence): time-major rows, step t owning `batch_sizes[t]` rows.
pub struct PackedSequence {
    pub data: Tensor,
    pub batch_sizes: Vec<i64>,
    pub sorted_indices: Option<Tensor>,
    pub unsorted_indices: Option<Tensor>,
}

fn index_tensor(v: &[i64], like: &Tensor) -> Result<Tensor> {
    let t = Tensor::from_slice(v, &[v.len() as i64])?;
    if like.device() == Device::Cpu {
        Ok(t)
    } else {
        t.to_device(like.device())
    }
}

/// Packs a padded batch `[T, B, *]` (`[B, T, *]` when `batch_first`) of sequences of the given lengths.
pub fn pack_padded_sequence(
    input: &Tensor,
    lengths: &[i64],
    batch_first: bool,
    enforce_sorted: bool,
) -> Result<PackedSequence> {
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    let (mut input, mut sorted, mut unsorted) = (input.clone(), None, None);
    if enforce_sorted {
        if lengths.windows(2).any(|w| w[0] < w[1]) {
            return Err(Error::InvalidArgument(
                "pack_padded_sequence: lengths must be sorted in decreasing order when enforce_sorted is true".into(),
            ));
        }
    } else {
        order.sort_by_key(|&i| std::cmp::Reverse(lengths[i]));
        let mut inv = vec![0i64; order.len()];
        for (k, &i) in order.iter().enumerate() {
            inv[i] = k as i64;
        }
        let idx = index_tensor(&order.iter().map(|&i| i as i64).collect::<Vec<_>>(), &input)?;
        input = input.index_select(if batch_first { 0 } else { 1 }, &idx)?;
        sorted = Some(idx);
        unsorted = Some(index_tensor(&inv, &input)?);
    }
    let lens: Vec<i64> = order.iter().map(|&i| lengths[i]).collect();
    if batch_first {
        input = input.transpose(0, 1)?;
    }
    let shape = input.shape();
    let (t_max, b) = (shape[0], shape[1]);
    if b != lens.len() as i64 || lens.iter().any(|&l| l <= 0 || l > t_max) {
        return Err(Error::InvalidArgument(format!(
            "pack_padded_sequence: expected {} lengths in [1, {}], got {:?}",
            b, t_max, lengths
        )));
    }
    let steps = lens.first().copied().unwrap_or(0);
    let batch_sizes: Vec<i64> = (0..steps).map(|t| lens.iter().filter(|&&l| l > t).count() as i64).collect();
    let rows: Vec<i64> = (0..steps).flat_map(|t| (0..batch_sizes[t as usize]).map(move |r| t * b + r)).collect();
    let mut flat_shape = vec![t_max * b];
    flat_shape.extend_from_slice(&shape[2..]);
    let data = input.reshape(&flat_shape)?.index_select(0, &index_tensor(&rows, &input)?)?;
    Ok(PackedSequence { data, batch_sizes, sorted_indices: sorted, unsorted_indices: unsorted })
}

/// The padded batch `[T, B, *]` (`[B, T, *]` when `batch_first`) of a packed one and the lengths, in the
/// original batch order; padding holds `padding_value`.
pub fn pad_packed_sequence(p: &PackedSequence, batch_first: bool, padding_value: f64) -> Result<(Tensor, Vec<i64>)> {
    let bs = &p.batch_sizes;
    let (t_max, b) = (bs.len() as i64, bs.first().copied().unwrap_or(0));
    let shape = p.data.shape();
    let mut pad_shape = vec![1];
    pad_shape.extend_from_slice(&shape[1..]);
    let pad = Tensor::full(&pad_shape, padding_value, p.data.dtype())?;
    let pad = if p.data.device() == Device::Cpu { pad } else { pad.to_device(p.data.device())? };
    let ext = Tensor::cat(&[&p.data, &pad], 0)?;
    let (mut rows, mut off) = (Vec::new(), 0);
    for &bt in bs {
        rows.extend((0..b).map(|r| if r < bt { off + r } else { shape[0] }));
        off += bt;
    }
    let mut out_shape = vec![t_max, b];
    out_shape.extend_from_slice(&shape[1..]);
    let mut padded = ext.index_select(0, &index_tensor(&rows, &p.data)?)?.reshape(&out_shape)?;
    let mut lengths: Vec<i64> = (0..b).map(|r| bs.iter().filter(|&&bt| bt > r).count() as i64).collect();
    if let Some(idx) = &p.unsorted_indices {
        padded = padded.index_select(1, idx)?;
        let perm = idx.to_device(Device::Cpu)?.to_vec::<i64>()?;
        lengths = perm.iter().map(|&i| lengths[i as usize]).collect();
    }
    if batch_first {
        padded = padded.transpose(0, 1)?;
    }
    Ok((padded, lengths))
}

/// Stacks sequences `[L_i, *]` into `[max L, B, *]` (`[B, max L, *]` when `batch_first`), padded with
/// `padding_value`.
pub fn pad_sequence(sequences: &[&Tensor], batch_first: bool, padding_value: f64) -> Result<Tensor> {
    let longest = sequences.iter().map(|s| s.shape()[0]).max().unwrap_or(0);
    let mut padded = Vec::new();
    for s in sequences {
        let shape = s.shape();
        if shape[0] < longest {
            let mut fill_shape = vec![longest - shape[0]];
            fill_shape.extend_from_slice(&shape[1..]);
            let fill = Tensor::full(&fill_shape, padding_value, s.dtype())?;
            let fill = if s.device() == Device::Cpu { fill } else { fill.to_device(s.device())? };
            padded.push(Tensor::cat(&[s, &fill], 0)?);
        } else {
            padded.push((*s).clone());
        }
    }
    let refs: Vec<&Tensor> = padded.iter().collect();
    Tensor::stack(&refs, if batch_first { 0 } else { 1 })
}
