"""The everyday tensor toolbox (issue 14) with torch's names and signatures: the in-place scatters,
index_add / index_copy / index_put and their in-place forms (functions and Tensor methods). The work is the
C ABI's (ct_index_add, ...); this file only adapts arguments."""
from . import _C
from ._creation import full, tensor
from ._tensor import Tensor

_TB = _C.TensorBase


def _source(input, index, src, value):
    """src as a tensor: value (or a number passed as src) fills index's shape in input's dtype (torch's
    scatter_(dim, index, value))."""
    src = value if src is None else src
    if isinstance(src, _TB):
        return src
    return full(tuple(index.shape), src, dtype=input.dtype, device=input.device)


def _values(input, values):
    if isinstance(values, _TB):
        return values
    return tensor(values, dtype=input.dtype, device=input.device)


def _indices(indices):
    if isinstance(indices, _TB):
        return [indices]
    out = []
    for t in indices:
        if not isinstance(t, _TB):
            t = tensor(t)
        out.append(t)
    return out


def _scatter_(self, dim, index, src=None, value=None, reduce=None):
    if reduce is not None:
        raise NotImplementedError("scatter_: the reduce argument is not supported; use scatter_add_")
    _C.scatter_(self, dim, index, _source(self, index, src, value))
    return self


def _scatter_add_(self, dim, index, src):
    _C.scatter_add_(self, dim, index, src)
    return self


def index_add(input, dim, index, source, *, alpha=1):
    return _C.index_add(input, dim, index, source, float(alpha))


def _index_add_(self, dim, index, source, *, alpha=1):
    _C.index_add_(self, dim, index, source, float(alpha))
    return self


def index_copy(input, dim, index, source):
    return _C.index_copy(input, dim, index, source)


def _index_copy_(self, dim, index, source):
    _C.index_copy_(self, dim, index, source)
    return self


def index_put(input, indices, values, accumulate=False):
    return _C.index_put(input, _indices(indices), _values(input, values), bool(accumulate))


def _index_put_(self, indices, values, accumulate=False):
    _C.index_put_(self, _indices(indices), _values(self, values), bool(accumulate))
    return self


for _name, _fn in dict(scatter_=_scatter_, scatter_add_=_scatter_add_, index_add=index_add, index_add_=_index_add_,
                       index_copy=index_copy, index_copy_=_index_copy_, index_put=index_put,
                       index_put_=_index_put_).items():
    setattr(Tensor, _name, _fn)

__all__ = ["index_add", "index_copy", "index_put"]
