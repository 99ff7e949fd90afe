"""Integer semantics from Python (issue 18, findings 3 and 8): wrap-around like NumPy, // and % never kill the
interpreter, scalars that do not fit the dtype raise, // is exact for int64 and floors like torch for floats."""
import numpy as np
import pytest
import torch

import ctensor as ct

I64_MIN, I64_MAX = -(2**63), 2**63 - 1


def test_int64_arithmetic_wraps_like_numpy():
    a = np.array([I64_MAX, I64_MIN, 3], dtype=np.int64)
    b = np.array([1, -1, I64_MAX], dtype=np.int64)
    x, y = ct.tensor(a.tolist(), dtype=ct.int64), ct.tensor(b.tolist(), dtype=ct.int64)
    with np.errstate(over="ignore"):
        assert (x + y).tolist() == (a + b).tolist()
        assert (x - y).tolist() == (a - b).tolist()
        assert (x * y).tolist() == (a * b).tolist()
        assert (-x).tolist() == (-a).tolist()
        assert x.sum().item() == int(a.sum())
        assert ct.cumsum(x, 0).tolist() == np.cumsum(a).tolist()


def test_min_int_division_and_remainder_do_not_trap():
    x = ct.tensor([I64_MIN])
    assert (x // -1).tolist() == [I64_MIN]
    assert (x % -1).tolist() == [0]
    i32 = ct.tensor([-(2**31)], dtype=ct.int32)
    assert (i32 // -1).tolist() == [-(2**31)]


def test_floor_division_matches_torch():
    a = [7, -7, 7, -7, 0, 2**62 + 1]
    b = [-2, 2, 2, -2, 5, 1]
    assert (ct.tensor(a) // ct.tensor(b)).tolist() == (torch.tensor(a) // torch.tensor(b)).tolist()
    fa = [7.5, -7.5, 1.0, -0.0, 5.0, 1e300]
    fb = [-2.0, 2.0, 3.0, 5.0, 0.0, 1e-300]
    got = (ct.tensor(fa) // ct.tensor(fb)).tolist()
    want = (torch.tensor(fa, dtype=torch.float64) // torch.tensor(fb, dtype=torch.float64)).tolist()
    assert str(got) == str(want)  # signs of zero and infinities included
    assert ct.div(ct.tensor([7]), ct.tensor([-2]), rounding_mode="floor").tolist() == [-4]


def test_scalars_that_do_not_fit_raise():
    u8 = ct.tensor([5], dtype=ct.uint8)
    with pytest.raises(ValueError, match="value 300 cannot be converted to uint8 without overflow"):
        u8 + 300
    with pytest.raises(ValueError, match="cannot be converted to uint8"):
        u8 // 256
    with pytest.raises(ValueError, match="cannot be converted to int32"):
        ct.tensor([5], dtype=ct.int32) * 2**40
    assert (u8 + 250).tolist() == [255]
    assert (u8 * 1.5).tolist() == [7.5]


def test_division_by_zero_names_the_op():
    with pytest.raises(ValueError, match="^floor_divide: integer division by zero"):
        ct.tensor([5]) // 0
    with pytest.raises(ValueError, match="^remainder: integer division by zero"):
        ct.tensor([5]) % 0


def test_bool_memory_holds_only_zero_and_one():
    # issue 18, finding 4: a numpy bool array over bytes other than 0 and 1 (a uint8 view) is refused when shared
    # zero-copy and normalised when copied
    raw = np.array([0, 2, 1, 255], dtype=np.uint8)
    odd = raw.view(np.bool_)
    with pytest.raises(ValueError, match="bool memory holds the byte 255"):
        ct.from_numpy(odd)
    t = ct.tensor(odd)
    assert t.tolist() == [False, True, True, True]
    assert (~t).tolist() == [True, False, False, False]
    assert ct.from_numpy(raw != 0).tolist() == [False, True, True, True]
