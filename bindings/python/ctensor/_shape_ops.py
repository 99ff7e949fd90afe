"""Shape, view, join/split and indexing ops with PyTorch signatures (ctensor.reshape, ctensor.cat, ...);
bound as Tensor methods in _functions.py."""
import builtins
import numbers

from . import _C
from ._creation import arange, full, zeros

_TB = _C.TensorBase


def _shape_args(shape):
    """x.view(2, 3) and x.view((2, 3)) alike."""
    if len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
        return tuple(shape[0])
    return tuple(shape)


# ---- shapes ---------------------------------------------------------------------------------------------

def reshape(input, *shape):
    return _C.reshape(input, _shape_args(shape))


def view(input, *shape):
    if len(shape) == 1 and not isinstance(shape[0], (numbers.Integral, tuple, list)):
        raise NotImplementedError("view(dtype) is not supported; use .to(dtype)")
    return _C.view(input, _shape_args(shape))


def permute(input, *dims):
    return _C.permute(input, _shape_args(dims))


def expand(input, *sizes):
    return _C.expand(input, _shape_args(sizes))


def expand_as(input, other):
    return _C.expand(input, tuple(other.shape))


def view_as(input, other):
    return _C.view(input, tuple(other.shape))


def reshape_as(input, other):
    return _C.reshape(input, tuple(other.shape))


def broadcast_to(input, shape):
    return _C.expand(input, tuple(shape))


def flatten(input, start_dim=0, end_dim=-1):
    return _C.flatten(input, start_dim, end_dim)


def unflatten(input, dim, sizes):
    shape = list(input.shape)
    d = dim % input.ndim
    return _C.reshape(input, tuple(shape[:d] + list(sizes) + shape[d + 1:]))


def squeeze(input, dim=None):
    if dim is None:
        return _C.squeeze_all(input)
    if isinstance(dim, numbers.Integral):
        return _C.squeeze(input, dim)
    out = input
    for d in sorted((d % builtins.max(input.ndim, 1) for d in dim), reverse=True):
        out = _C.squeeze(out, d)
    return out


def unsqueeze(input, dim):
    return _C.unsqueeze(input, dim)


def transpose(input, dim0, dim1):
    return _C.transpose(input, dim0, dim1)


swapaxes = swapdims = transpose


def movedim(input, source, destination):
    n = input.ndim
    order = [d for d in range(n) if d != source % n]
    order.insert(destination % n, source % n)
    return _C.permute(input, tuple(order))


def narrow(input, dim, start, length):
    return _C.narrow(input, dim, builtins.int(start), length)


def select(input, dim, index):
    return _C.select(input, dim, index)


def diagonal(input, offset=0, dim1=0, dim2=1):
    """A view of the diagonal of dims dim1, dim2 (offset > 0 above the main one), appended as the last dim."""
    return _C.diagonal(input, offset, dim1, dim2)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose diagonal (offset, dim1, dim2) holds input's last dim and is zero elsewhere."""
    nd = input.ndim + 1
    d1, d2 = dim1 % nd if -nd <= dim1 < nd else dim1, dim2 % nd if -nd <= dim2 < nd else dim2
    if not (0 <= d1 < nd and 0 <= d2 < nd) or d1 == d2:
        raise IndexError("diag_embed: dims %d and %d must be distinct and in [%d, %d]" % (dim1, dim2, -nd, nd - 1))
    n = input.shape[-1] + builtins.abs(offset)
    rest = iter(input.shape[:-1])
    shape = [n if d in (d1, d2) else next(rest) for d in range(nd)]
    out = zeros(shape, dtype=input.dtype, device=input.device)
    _C.copy_(_C.diagonal(out, offset, d1, d2), input)
    return out


def diag(input, diagonal=0):
    """1-D input: the square matrix with input on the given diagonal; 2-D input: a copy of that diagonal."""
    if input.ndim == 1:
        return diag_embed(input, diagonal, 0, 1)
    if input.ndim == 2:
        return _C.clone(_C.diagonal(input, diagonal, 0, 1))
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got %dD" % input.ndim)


def trace(input):
    """Sum of the main diagonal of a 2-D tensor."""
    if input.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim %d" % input.ndim)
    return _C.diagonal(input, 0, 0, 1).sum()


def split(tensor, split_size_or_sections, dim=0):
    if isinstance(split_size_or_sections, numbers.Integral):
        return _C.split(tensor, split_size_or_sections, dim)
    total = tensor.shape[dim]
    if builtins.sum(split_size_or_sections) != total:
        raise ValueError("split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at "
                         "dimension %d), but got split_sizes=%s" % (total, dim, list(split_size_or_sections)))
    out, start = [], 0
    for s in split_size_or_sections:
        out.append(_C.narrow(tensor, dim, start, s))
        start += s
    return tuple(out)


def chunk(input, chunks, dim=0):
    return _C.chunk(input, chunks, dim)


def unbind(input, dim=0):
    return tuple(_C.select(input, dim, i) for i in range(input.shape[dim]))


def flip(input, dims):
    out = input
    for d in ((dims,) if isinstance(dims, numbers.Integral) else dims):
        n = out.shape[d]
        out = _C.index_select(out, d, arange(n - 1, -1, -1, device=input.device))
    return out


def repeat(input, *sizes):
    sizes = _shape_args(sizes)
    if len(sizes) < input.ndim:
        raise ValueError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    shape = (1,) * (len(sizes) - input.ndim) + tuple(input.shape)
    x = _C.reshape(input, tuple(v for s in shape for v in (1, s)))
    x = _C.expand(x, tuple(v for r, s in zip(sizes, shape) for v in (r, s)))
    return _C.reshape(x, tuple(r * s for r, s in zip(sizes, shape)))


def tile(input, dims):
    dims = tuple(dims)
    return repeat(input, (1,) * (input.ndim - len(dims)) + dims)


def cat(tensors, dim=0):
    return _C.cat(list(tensors), dim)


concat = concatenate = cat


def stack(tensors, dim=0):
    return _C.stack(list(tensors), dim)


def hstack(tensors):
    tensors = list(tensors)
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def vstack(tensors):
    return cat([t if t.ndim >= 2 else _C.reshape(t, (1, -1)) for t in tensors], 0)


# ---- indexing -------------------------------------------------------------------------------------------

def index_select(input, dim, index):
    return _C.index_select(input, dim, index)


def gather(input, dim, index):
    return _C.gather(input, dim, index)


def scatter(input, dim, index, src=None, value=None):
    src = value if src is None else src
    if not isinstance(src, _TB):
        src = full(tuple(index.shape), src, dtype=input.dtype, device=input.device)
    return _C.scatter(input, dim, index, src)


def scatter_add(input, dim, index, src):
    return _C.scatter_add(input, dim, index, src)


def masked_fill(input, mask, value):
    if isinstance(value, _TB):
        if value.ndim != 0:
            raise ValueError("masked_fill only supports a 0-dimensional value tensor, but got tensor with %d "
                             "dimension(s)" % value.ndim)
        if value.requires_grad:
            return _C.where(mask, value.to(input.dtype), input)
        value = value.item()
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        # a complex fill: complex tensors only (torch refuses it for real ones), as a where over the input's shape
        if not input.is_complex():
            raise TypeError("masked_fill: a complex value %r cannot fill a %s tensor" % (value, input.dtype))
        out = _C.where(mask, full((), value, dtype=input.dtype), input)
        if tuple(out.shape) != tuple(input.shape):
            raise ValueError("masked_fill: mask of shape %s does not broadcast to the input's shape %s"
                             % (tuple(mask.shape), tuple(input.shape)))
        return out
    return _C.masked_fill(input, mask, builtins.float(value))


def masked_select(input, mask):
    return _C.masked_select(input, mask)


def nonzero(input, *, as_tuple=False):
    nz = _C.nonzero(input)
    if not as_tuple:
        return nz
    return tuple(_C.select(nz, 1, i) for i in range(nz.shape[1]))


def argwhere(input):
    return _C.nonzero(input)


_PRIVATE = {"arange", "full"}
__all__ = sorted(n for n, v in globals().items()
                 if not n.startswith("_") and callable(v) and not isinstance(v, type) and n not in _PRIVATE)
