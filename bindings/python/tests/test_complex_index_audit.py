"""Issue 15 audit: an index, class-target, offsets, repeats or count tensor of a complex (or floating) dtype is refused
naming the op and the dtype (TypeError = CT_ERR_DTYPE; IndexError for tensor[...] as torch), never read through its
real part. torch 1.13 refuses each of these too (checked here), except ctc_loss, which casts its targets."""
import pytest

import ctensor as ct

torch = pytest.importorskip("torch")


def cases(m):
    F = m.nn.functional
    x = m.arange(20.0).reshape(4, 5)
    return {
        "index_select": lambda i: m.index_select(x, 0, i.reshape(-1)),
        "gather": lambda i: m.gather(x, 1, i),
        "take_along_dim": lambda i: m.take_along_dim(x[:2], i, 1),
        "scatter": lambda i: x.scatter(1, i, m.ones(2, 2)),
        "scatter_add": lambda i: x.scatter_add(1, i, m.ones(2, 2)),
        "scatter_reduce": lambda i: x.scatter_reduce(1, i, m.ones(2, 2), "sum"),
        "index_add": lambda i: x.index_add(0, i[0], m.ones(2, 5)),
        "index_copy": lambda i: x.index_copy(0, i[0], m.ones(2, 5)),
        "index_put": lambda i: x.index_put((i[0],), m.tensor(1.0)),
        "getitem": lambda i: x[i],
        "setitem": lambda i: x.__setitem__(i[0], 0.0),
        "embedding": lambda i: F.embedding(i, x),
        "embedding_bag": lambda i: F.embedding_bag(i, x),
        "embedding_bag offsets": lambda i: F.embedding_bag(m.tensor([0, 1, 2, 3]), x, i[0]),
        "nll_loss": lambda i: F.nll_loss(x[:2], i[0]),
        "multi_margin_loss": lambda i: F.multi_margin_loss(x[:2], i[0]),
        "ctc_loss": lambda i: F.ctc_loss(x.reshape(4, 1, 5).log_softmax(2), i.reshape(1, -1)[:, :2] + 1,
                                         m.tensor([4]), m.tensor([2])),
        "repeat_interleave": lambda i: m.repeat_interleave(x[:, 0], i.reshape(-1)),
        "bincount": lambda i: m.bincount(i.reshape(-1)),
        "one_hot": lambda i: F.one_hot(i),
    }


@pytest.mark.parametrize("dt", ["complex64", "complex128", "float32"])
@pytest.mark.parametrize("op", list(cases(ct)))
def test_non_integer_index_is_refused(op, dt):
    data = [[0, 1], [2, 3]]
    if op != "ctc_loss":  # torch 1.13's ctc_loss casts float / complex targets to int64 (a warning for complex)
        with pytest.raises((RuntimeError, TypeError, IndexError)):  # torch refuses it as well
            cases(torch)[op](torch.tensor(data).to(getattr(torch, dt)))
    with pytest.raises((TypeError, IndexError), match=dt if op not in ("getitem", "setitem") else "long, int"):
        cases(ct)[op](ct.tensor(data).to(getattr(ct, dt)))
    assert cases(ct)[op](ct.tensor(data)) is not ct  # the int64 index works (no exception)
