"""Python operators (C number protocol): values vs NumPy, reflected and in-place forms, comparisons,
broadcasting and PyTorch type promotion with Python scalars."""
import operator

import numpy as np
import pytest

import ctensor as ct

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow]


@pytest.mark.parametrize("op", BINARY + [operator.floordiv, operator.mod], ids=lambda o: o.__name__)
def test_binary_tensor_tensor_broadcast(op, rng):
    a = rng.uniform(0.5, 2.0, (3, 1, 4)).astype(np.float32)
    b = rng.uniform(0.5, 2.0, (5, 1)).astype(np.float32)
    np.testing.assert_allclose(op(ct.tensor(a), ct.tensor(b)).numpy(), op(a, b), rtol=1e-5)


@pytest.mark.parametrize("op", BINARY + [operator.floordiv, operator.mod], ids=lambda o: o.__name__)
def test_binary_with_python_scalars_both_sides(op, rng):
    a = rng.uniform(0.5, 2.0, (2, 3)).astype(np.float32)
    t = ct.tensor(a)
    np.testing.assert_allclose(op(t, 1.5).numpy(), op(a, np.float32(1.5)), rtol=1e-5)
    np.testing.assert_allclose(op(2.5, t).numpy(), op(np.float32(2.5), a), rtol=1e-5)
    assert op(t, 2).dtype is ct.float32 and op(3, t).dtype is ct.float32


def test_scalar_type_promotion_like_torch():
    i = ct.tensor([1, 2, 3])
    f = ct.tensor([1.0, 2.0])
    assert (i + 1).dtype is ct.int64
    assert (i + 1.5).dtype is ct.float32
    assert (i / 2).dtype is ct.float32 and (i / 2).tolist() == [0.5, 1.0, 1.5]
    assert (f * 2).dtype is ct.float32
    assert (ct.tensor([1, 2], dtype=ct.int32) + 5).dtype is ct.int32
    assert (ct.tensor([1, 2], dtype=ct.uint8) + 1).dtype is ct.uint8
    assert (f + ct.tensor([1.0, 2.0], dtype=ct.float64)).dtype is ct.float64
    assert (i + f[:1]).dtype is ct.float32


def test_integer_floor_division_and_remainder_follow_python():
    a = np.array([7, -7, 7, -7, 0])
    b = np.array([2, 2, -2, -2, 3])
    assert (ct.tensor(a) // ct.tensor(b)).tolist() == (a // b).tolist()
    assert (ct.tensor(a) % ct.tensor(b)).tolist() == (a % b).tolist()
    assert (ct.tensor(a) // ct.tensor(b)).dtype is ct.int64
    assert (ct.tensor([7.5, -7.5]) // 2).tolist() == [3.0, -4.0]


def test_inplace_operators_keep_identity_and_dtype():
    t = ct.tensor([1.0, 2.0, 3.0])
    alias = t
    t += 1
    t *= ct.tensor([2.0, 2.0, 2.0])
    t -= 0.5
    t /= 2
    assert t is alias and t.tolist() == [1.75, 2.75, 3.75]
    i = ct.tensor([5, 6])
    i += 2
    assert i.dtype is ct.int64 and i.tolist() == [7, 8]
    v = t[1:]
    v += 100  # writes through the view
    assert t.tolist() == [1.75, 102.75, 103.75]


def test_inplace_via_copy_operators():
    t = ct.tensor([1.0, 2.0, 3.0])
    t **= 2
    assert t.tolist() == [1.0, 4.0, 9.0]
    t //= 2
    assert t.tolist() == [0.0, 2.0, 4.0]
    t %= 3
    assert t.tolist() == [0.0, 2.0, 1.0]


@pytest.mark.parametrize("op", [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge],
                         ids=lambda o: o.__name__)
def test_comparisons(op, rng):
    a = rng.integers(0, 3, (4, 3)).astype(np.float32)
    b = rng.integers(0, 3, (3,)).astype(np.float32)
    r = op(ct.tensor(a), ct.tensor(b))
    assert r.dtype is ct.bool and r.numpy().tolist() == op(a, b).tolist()
    assert op(ct.tensor(a), 1).numpy().tolist() == op(a, 1).tolist()
    assert op(1, ct.tensor(a)).numpy().tolist() == op(1, a).tolist()


def test_eq_none_and_hash():
    t = ct.tensor([1.0])
    assert (t == None) is False  # noqa: E711
    assert (t != None) is True  # noqa: E711
    assert len({t, t}) == 1


def test_matmul_operator(rng):
    a = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose((ct.tensor(a) @ ct.tensor(b)).numpy(), a @ b, rtol=1e-5, atol=1e-6)
    v = rng.standard_normal(3).astype(np.float32)
    np.testing.assert_allclose((ct.tensor(a) @ ct.tensor(v)).numpy(), a @ v, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError):
        ct.tensor(a) @ ct.tensor(a)


def test_unary_operators():
    t = ct.tensor([-1.5, 0.0, 2.0])
    assert (-t).tolist() == [1.5, -0.0, -2.0]
    assert abs(t).tolist() == [1.5, 0.0, 2.0]
    assert (+t) is t
    m = ct.tensor([True, False])
    assert (~m).tolist() == [False, True]
    with pytest.raises(TypeError):
        ~t


def test_logical_operators_on_bool():
    a, b = ct.tensor([True, True, False]), ct.tensor([True, False, False])
    assert (a & b).tolist() == [True, False, False]
    assert (a | b).tolist() == [True, True, False]
    assert (a ^ b).tolist() == [False, True, False]
    assert (ct.tensor([1, 2]) & ct.tensor([1, 0])).tolist() == [1, 0]  # bitwise on integers, as torch
    with pytest.raises(TypeError, match="bitwise_and"):
        ct.tensor([1.0]) & ct.tensor([1.0])


def test_numpy_operands_defer_to_tensor(rng):
    a = rng.standard_normal(3).astype(np.float32)
    t = ct.tensor([1.0, 2.0, 3.0])
    r1, r2 = t + a, a + t
    assert isinstance(r1, ct.Tensor) and isinstance(r2, ct.Tensor)
    np.testing.assert_allclose(r2.numpy(), a + np.array([1, 2, 3], np.float32), rtol=1e-6)
    with pytest.raises(TypeError):
        t + "x"
    with pytest.raises(TypeError):
        t + [1, 2, 3]


def test_broadcast_error_is_value_error():
    with pytest.raises(ValueError, match=r"\[2\].*\[3\]|broadcast"):
        ct.ones(2) + ct.ones(3)
