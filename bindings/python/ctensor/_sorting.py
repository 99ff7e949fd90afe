"""Sorting and selection (sort, argsort, topk, kthvalue, msort, unique), reordering (flip, roll, fliplr, flipud,
tril, triu), cumprod and einsum with PyTorch signatures; sort/topk/kthvalue return namedtuples with
.values/.indices like torch.return_types."""
import collections
import numbers

from . import _C
from ._tensor import Tensor

sort_ret = collections.namedtuple("sort", ["values", "indices"])
topk_ret = collections.namedtuple("topk", ["values", "indices"])
kthvalue_ret = collections.namedtuple("kthvalue", ["values", "indices"])


def sort(input, dim=-1, descending=False, stable=False):
    return sort_ret(*_C.sort(input, dim, bool(descending), bool(stable)))


def argsort(input, dim=-1, descending=False, stable=False):
    return _C.argsort(input, dim, bool(descending), bool(stable))


def msort(input):
    return sort(input, 0).values


def topk(input, k, dim=-1, largest=True, sorted=True):
    return topk_ret(*_C.topk(input, k, dim, bool(largest), bool(sorted)))


def kthvalue(input, k, dim=-1, keepdim=False):
    return kthvalue_ret(*_C.kthvalue(input, k, dim, bool(keepdim)))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique: distinct values of the flattened input (sorted=False keeps first occurrence), or with
    dim, the distinct slices along dim in lexicographic order (always sorted, as in torch)."""
    if dim is not None:
        values, inverse, counts = _unique_dim(input, dim)
    else:
        values, inverse, counts = _C.unique(input, bool(sorted), bool(return_inverse), bool(return_counts))
    if not return_inverse and not return_counts:
        return values
    out = (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())
    return out


def _unique_dim(input, dim):
    """Distinct slices of input along dim: a lexicographic row sort by stable argsorts from the last
    column to the first (radix order), then run boundaries. Returns (values, inverse, counts)."""
    from ._creation import arange, ones, zeros
    from ._shape_ops import cat
    from ._types import bool_, int64

    if input.ndim == 0:
        raise IndexError("unique: dim %d is out of range for a 0-d tensor" % dim)
    if not -input.ndim <= dim < input.ndim:
        raise IndexError("unique: dim %d is out of range for a %d-d tensor" % (dim, input.ndim))
    dim %= input.ndim
    moved = input.transpose(dim, 0)  # as torch: the key order of the other dims follows transpose, not movedim
    n = moved.shape[0]
    rows = moved.reshape(n, -1) if n > 0 else moved.reshape(0, max(1, moved.numel()))
    order = arange(n, dtype=int64, device=input.device)
    for c in reversed(range(rows.shape[1])):
        keys = rows[:, c].index_select(0, order)
        order = order.index_select(0, keys.argsort(stable=True))
    srt = rows.index_select(0, order)
    if n == 0:
        empty = zeros(0, dtype=int64, device=input.device)
        return moved.transpose(0, dim), empty, empty
    changed = (srt[1:] != srt[:-1]).any(dim=1) if rows.shape[1] > 0 else zeros(n - 1, dtype=bool_, device=input.device)
    starts_mask = cat([ones(1, dtype=bool_, device=input.device), changed])
    group = starts_mask.to(int64).cumsum(0) - 1
    starts = starts_mask.nonzero().reshape(-1)
    values = moved.index_select(0, order.index_select(0, starts)).transpose(0, dim)
    inverse = zeros(n, dtype=int64, device=input.device).scatter(0, order, group)
    ends = cat([starts[1:], arange(n, n + 1, dtype=int64, device=input.device)])
    return values, inverse, ends - starts


def cumprod(input, dim, *, dtype=None):
    return _C.cumprod(input if dtype is None else input.to(dtype), dim)


def flip(input, dims):
    return _C.flip(input, (dims,) if isinstance(dims, numbers.Integral) else tuple(dims))


def fliplr(input):
    if input.ndim < 2:
        raise ValueError("fliplr: input must be >= 2-d, got shape %s" % (tuple(input.shape),))
    return flip(input, 1)


def flipud(input):
    if input.ndim < 1:
        raise ValueError("flipud: input must be >= 1-d")
    return flip(input, 0)


def roll(input, shifts, dims=None):
    shifts = (shifts,) if isinstance(shifts, numbers.Integral) else tuple(shifts)
    if dims is not None:
        dims = (dims,) if isinstance(dims, numbers.Integral) else tuple(dims)
    return _C.roll(input, shifts, dims)


def tril(input, diagonal=0):
    return _C.tril(input, diagonal)


def triu(input, diagonal=0):
    return _C.triu(input, diagonal)


def einsum(equation, *operands):
    """torch.einsum: einsum("ij,jk->ik", a, b) or einsum("ij,jk->ik", [a, b])."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return _C.einsum(equation, list(operands))


def _in_place(fn):
    def method(self, *args, **kwargs):
        _C.copy_(self, fn(self, *args, **kwargs))
        return self

    method.__name__ = fn.__name__ + "_"
    return method


for _name, _fn in dict(sort=sort, argsort=argsort, msort=msort, topk=topk, kthvalue=kthvalue, unique=unique,
                       cumprod=cumprod, flip=flip, fliplr=fliplr, flipud=flipud, roll=roll, tril=tril,
                       triu=triu).items():
    setattr(Tensor, _name, _fn)
Tensor.tril_ = _in_place(tril)
Tensor.triu_ = _in_place(triu)
Tensor.cumprod_ = _in_place(cumprod)

__all__ = ["sort", "argsort", "msort", "topk", "kthvalue", "unique", "cumprod", "flip", "fliplr", "flipud", "roll",
           "tril", "triu", "einsum"]
