"""ctensor.nn.utils.rnn: PackedSequence, pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence
and unpack_sequence, as torch.nn.utils.rnn. A packed batch keeps its rows time-major (step t owns the next
batch_sizes[t] rows, the sequences sorted by decreasing length); packing and padding are one index_select each, so
gradients flow through them."""
from collections import namedtuple

from .. import _C
from .._creation import full, tensor

_PackedSequenceBase = namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])


class PackedSequence(_PackedSequenceBase):
    """data [sum(batch_sizes), *], batch_sizes (int64 CPU tensor), sorted_indices / unsorted_indices (int64 or None)."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        move = (lambda t: None if t is None else t.to(device=data.device))
        return type(self)(data, self.batch_sizes, move(self.sorted_indices), move(self.unsorted_indices))

    @property
    def is_cuda(self):
        return self.data.is_cuda


def _invert_permutation(perm):
    inv = [0] * perm.numel()
    for i, p in enumerate(perm.tolist()):
        inv[int(p)] = i
    return tensor(inv, dtype=perm.dtype, device=perm.device)


def _lengths_list(lengths):
    return [int(v) for v in (lengths.tolist() if isinstance(lengths, _C.TensorBase) else lengths)]


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded batch [T, B, *] ([B, T, *] when batch_first) of sequences of the given lengths."""
    lengths = _lengths_list(lengths)
    if enforce_sorted:
        if any(lengths[i] < lengths[i + 1] for i in range(len(lengths) - 1)):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
                               "to sidestep this requirement if you do not need ONNX exportability.")
        sorted_indices = None
    else:
        order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
        sorted_indices = tensor(order, device=input.device)
        input = _C.index_select(input, 0 if batch_first else 1, sorted_indices)
        lengths = [lengths[i] for i in order]
    if batch_first:
        input = _C.transpose(input, 0, 1)
    T, B = input.shape[0], input.shape[1]
    if B != len(lengths):
        raise ValueError("pack_padded_sequence: expected %d lengths (the batch), got %d" % (B, len(lengths)))
    if B and (lengths[-1] <= 0):
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    if B and lengths[0] > T:
        raise ValueError("pack_padded_sequence: a length of %d exceeds the %d padded steps" % (lengths[0], T))
    steps = lengths[0] if B else 0
    batch_sizes = [sum(1 for n in lengths if n > t) for t in range(steps)]
    rows = [t * B + b for t in range(steps) for b in range(batch_sizes[t])]
    flat = _C.reshape(input, (T * B,) + tuple(input.shape[2:]))
    data = _C.index_select(flat, 0, tensor(rows, device=input.device))
    return PackedSequence(data, tensor(batch_sizes), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """(padded [T, B, *] ([B, T, *] when batch_first), lengths [B] int64) of a PackedSequence, in the original order."""
    data, batch_sizes, _, unsorted_indices = sequence
    bs = [int(b) for b in batch_sizes.tolist()]
    T, B = len(bs), (bs[0] if bs else 0)
    if total_length is not None:
        if total_length < T:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             "but got total_length=%d and max sequence length being %d" % (total_length, T))
        T_out = total_length
    else:
        T_out = T
    n = data.shape[0]
    pad = full((1,) + tuple(data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
    ext = _C.cat([data, pad], 0)
    rows, off = [], 0
    for t in range(T_out):
        b_t = bs[t] if t < T else 0
        rows += [off + b if b < b_t else n for b in range(B)]
        off += b_t
    padded = _C.index_select(ext, 0, tensor(rows, device=data.device))
    padded = _C.reshape(padded, (T_out, B) + tuple(data.shape[1:]))
    lengths = [sum(1 for b_t in bs if b_t > b) for b in range(B)]
    lengths_t = tensor(lengths)
    if unsorted_indices is not None:
        padded = _C.index_select(padded, 1, unsorted_indices)
        lengths_t = tensor([lengths[i] for i in unsorted_indices.tolist()])
    if batch_first:
        padded = _C.transpose(padded, 0, 1)
    return padded, lengths_t


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    """Stacks sequences [L_i, *] into [max L, B, *] ([B, max L, *] when batch_first), padding with padding_value."""
    sequences = list(sequences)
    longest = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        if s.shape[0] < longest:
            fill = full((longest - s.shape[0],) + tuple(s.shape[1:]), padding_value, dtype=s.dtype, device=s.device)
            s = _C.cat([s, fill], 0)
        padded.append(s)
    return _C.stack(padded, 0 if batch_first else 1)


def pack_sequence(sequences, enforce_sorted=True):
    """Packs a list of sequences [L_i, *] (pad_sequence then pack_padded_sequence)."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences [L_i, *] of a PackedSequence (inverse of pack_sequence)."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return [padded[i][:int(n)] for i, n in enumerate(lengths.tolist())]
