"""__getitem__/__setitem__ against NumPy: ints, slices with steps, None, Ellipsis, integer tensors/lists
(advanced, broadcast together), bool masks, views sharing storage, and assignment."""
import numpy as np
import pytest

import ctensor as ct

A = np.arange(60, dtype=np.float32).reshape(3, 4, 5)

BASIC = [
    1, -1, (0, 1), (2, -1, 3), slice(None), slice(1, None), slice(None, None, 2), (slice(None), slice(1, 4, 2)),
    (Ellipsis, 1), (1, Ellipsis), (None, 1), (slice(None), None, 2), (Ellipsis, None), (0, slice(-3, None)),
    (slice(10, 20),), (slice(-100, 2),), (1, 2, slice(None, None, 3)), (Ellipsis,), (None, Ellipsis, None),
]


@pytest.mark.parametrize("idx", BASIC, ids=repr)
def test_basic_indexing_matches_numpy_and_is_a_view(idx):
    t = ct.tensor(A)
    r = t[idx]
    np.testing.assert_array_equal(r.numpy(), A[idx])
    if r.numel():
        assert r._shares_storage(t)


ADVANCED = [
    [0, 2], ([0, 2],), ([[0, 1], [2, 2]],), (slice(None), [3, 0, 3]), ([0, 1], [1, 2]), ([0, 2], slice(None), [4, 0]),
    (Ellipsis, [1, -1]), ([-1, 0],), (1, [0, 3], slice(1, 3)), ([[0], [2]], [1, 3]),
]


@pytest.mark.parametrize("idx", ADVANCED, ids=repr)
def test_advanced_integer_indexing_matches_numpy(idx):
    t = ct.tensor(A)
    ct_idx = tuple(ct.tensor(i) if isinstance(i, list) else i for i in idx) if isinstance(idx, tuple) else idx
    np.testing.assert_array_equal(t[ct_idx].numpy(), A[idx])
    np.testing.assert_array_equal(t[idx].numpy(), A[idx])  # plain lists work too


def test_bool_mask_indexing():
    t = ct.tensor(A)
    mask = A > 30
    np.testing.assert_array_equal(t[ct.tensor(mask)].numpy(), A[mask])
    np.testing.assert_array_equal(t[t > 30].numpy(), A[mask])
    m2 = A[:, :, 0] > 20
    np.testing.assert_array_equal(t[ct.tensor(m2)].numpy(), A[m2])
    m1 = np.array([True, False, True, False])
    np.testing.assert_array_equal(t[:, ct.tensor(m1)].numpy(), A[:, m1])
    with pytest.raises(IndexError):
        t[ct.tensor([True, False])]


def test_index_errors():
    t = ct.tensor(A)
    with pytest.raises(IndexError):
        t[3]
    with pytest.raises(IndexError):
        t[0, 0, 0, 0]
    with pytest.raises(IndexError):
        t[..., ...]
    with pytest.raises(IndexError):
        t[ct.tensor([0, 3])]
    with pytest.raises(IndexError):
        t[ct.tensor([0.5])]
    with pytest.raises(ValueError):
        t[::-1]


def test_setitem_basic():
    a = A.copy()
    t = ct.tensor(A)
    t[0] = 1.5
    a[0] = 1.5
    t[1, :, ::2] = ct.tensor([7.0, 8.0, 9.0])
    a[1, :, ::2] = [7.0, 8.0, 9.0]
    t[..., -1] = ct.zeros(3, 4)
    a[..., -1] = 0
    t[2, 1] = np.arange(5)
    a[2, 1] = np.arange(5)
    np.testing.assert_array_equal(t.numpy(), a)


def test_setitem_advanced_and_masks():
    a = A.copy()
    t = ct.tensor(A)
    t[t > 50] = -1.0
    a[a > 50] = -1.0
    t[ct.tensor([0, 2]), 1] = ct.tensor([100.0])
    a[[0, 2], 1] = 100.0
    t[[1], [2], [3]] = 5.0
    a[[1], [2], [3]] = 5.0
    np.testing.assert_array_equal(t.numpy(), a)
    m = ct.tensor([[True, False], [False, True]])
    x = ct.zeros(2, 2)
    x[m] = ct.tensor([3.0, 4.0])
    assert x.tolist() == [[3.0, 0.0], [0.0, 4.0]]


def test_iteration_and_len():
    t = ct.tensor([[1, 2], [3, 4]])
    assert [r.tolist() for r in t] == [[1, 2], [3, 4]]
    assert 3 in t and 7 not in t
