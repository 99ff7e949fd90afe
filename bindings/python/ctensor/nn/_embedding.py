"""F.embedding / F.embedding_bag and nn.Embedding / nn.EmbeddingBag with torch's signatures, over the C ABI's
ct_embedding_ex (padding_idx, scale_grad_by_freq), ct_embedding_renorm_ (max_norm) and ct_embedding_bag."""
from .. import _C
from .._creation import empty
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["embedding", "embedding_bag", "Embedding", "EmbeddingBag"]

_BAG_MODES = {"sum": 0, "mean": 1, "max": 2}  # CT_EMBEDDING_BAG_SUM / _MEAN / _MAX


def _padding(padding_idx, num):
    """torch's padding_idx check and wrap (negative counts from the end)."""
    if padding_idx is None:
        return None
    if padding_idx > 0 and padding_idx >= num:
        raise AssertionError("Padding_idx must be within num_embeddings")
    if padding_idx < 0 and padding_idx < -num:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return padding_idx + num if padding_idx < 0 else padding_idx


def _renorm(weight, input, max_norm, norm_type):
    """torch.embedding_renorm_ under no_grad: rows of weight named by input scaled down to max_norm."""
    with_grad = _C.set_grad_enabled(False)
    try:
        _C.embedding_renorm_(weight, input, float(max_norm), float(norm_type))
    finally:
        _C.set_grad_enabled(with_grad)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Rows of weight at the indices input; padding_idx's row gets no gradient, max_norm renormalises the looked-up
    rows of weight in place first, scale_grad_by_freq divides gradients by the rows' counts in input. sparse is
    accepted (the gradient is always dense)."""
    padding_idx = _padding(padding_idx, weight.shape[0])
    if max_norm is not None:
        _renorm(weight, input, max_norm, norm_type)
    if padding_idx is None and not scale_grad_by_freq:
        return _C.embedding(weight, input)
    return _C.embedding_ex(weight, input, padding_idx, bool(scale_grad_by_freq))


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Sums, means or maxes of bags of embedding rows: input 2-D (a bag per row) or 1-D with offsets starting each
    bag; per_sample_weights scale the rows (mode "sum" only); padding_idx's rows are left out of their bags."""
    if mode not in _BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if input.ndim == 2 and offsets is not None:
        raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                         "length sequences. However, found offsets of type %s" % type(offsets).__name__)
    if input.ndim == 1 and offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if scale_grad_by_freq and mode == "max":
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  "supported for mode='sum' (got mode='%s'). Please open a feature request on "
                                  "GitHub." % mode)
    if padding_idx is not None:
        padding_idx = _padding(padding_idx, weight.shape[0])
    if max_norm is not None:
        _renorm(weight, input, max_norm, norm_type)
    return _C.embedding_bag(weight, input, offsets, _BAG_MODES[mode], per_sample_weights, bool(include_last_offset),
                            padding_idx, bool(scale_grad_by_freq))


def _init_weight(module, num_embeddings, embedding_dim, _weight, device, dtype):
    if _weight is None:
        module.weight = Parameter(empty(num_embeddings, embedding_dim, device=device, dtype=dtype))
        init.normal_(module.weight)
        if module.padding_idx is not None:
            with_grad = _C.set_grad_enabled(False)
            _C.fill_(_C.select(module.weight, 0, module.padding_idx), 0.0)
            _C.set_grad_enabled(with_grad)
    else:
        if list(_weight.shape) != [num_embeddings, embedding_dim]:
            raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
        module.weight = Parameter(_weight)


class Embedding(Module):
    """Lookup table [num_embeddings, embedding_dim] initialised N(0, 1) (padding_idx's row zero), torch's options."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, device=None, dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = _padding(padding_idx, num_embeddings)
        self.max_norm, self.norm_type, self.scale_grad_by_freq, self.sparse = max_norm, norm_type, scale_grad_by_freq, sparse
        _init_weight(self, num_embeddings, embedding_dim, _weight, device, dtype)

    def forward(self, input):
        return embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                         self.sparse)

    def extra_repr(self):
        s = "%d, %d" % (self.num_embeddings, self.embedding_dim)
        if self.padding_idx is not None:
            s += ", padding_idx=%d" % self.padding_idx
        if self.max_norm is not None:
            s += ", max_norm=%s" % self.max_norm
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        if embeddings.ndim != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        m = cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse, _weight=embeddings)
        m.weight.requires_grad_(not freeze)
        return m


class EmbeddingBag(Module):
    """Bags of embedding rows reduced by mode ("mean" by default), torch's EmbeddingBag."""

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type, self.scale_grad_by_freq = max_norm, norm_type, scale_grad_by_freq
        self.mode, self.sparse, self.include_last_offset = mode, sparse, include_last_offset
        self.padding_idx = _padding(padding_idx, num_embeddings)
        _init_weight(self, num_embeddings, embedding_dim, _weight, device, dtype)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                             self.mode, self.sparse, per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self):
        s = "%d, %d, mode='%s'" % (self.num_embeddings, self.embedding_dim, self.mode)
        if self.padding_idx is not None:
            s += ", padding_idx=%d" % self.padding_idx
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        if embeddings.ndim != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        m = cls(rows, cols, max_norm, norm_type, scale_grad_by_freq, mode, sparse, embeddings, include_last_offset,
                padding_idx)
        m.weight.requires_grad_(not freeze)
        return m
