"""The integer ops of issue 14 against torch 1.13: bitwise_and/or/xor/not, shifts, gcd, lcm for every integer
dtype and bool (result dtype as torch), mixed dtypes, Python numbers, the operators & | ^ ~ << >> and their in-place
forms, refusals of floating tensors, and the shift counts outside the bit width (Note [Shift counts])."""
import numpy as np
import pytest

import ctensor as ct
from conftest import requires_torch

LOGIC = ["bitwise_and", "bitwise_or", "bitwise_xor"]
INT_ONLY = ["bitwise_left_shift", "bitwise_right_shift", "gcd", "lcm"]
INTS = ["int64", "int32", "int16", "int8", "uint8"]


def data(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    lo, hi = (0, 40) if dtype == "uint8" else (-40, 40)
    return rng.integers(lo, hi, shape).astype(dtype)


def pair(torch, arr, dtype):
    return ct.tensor(arr).to(getattr(ct, dtype)), torch.tensor(arr).to(getattr(torch, dtype))


def check(got, want):
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1], (got.dtype, want.dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def counts(torch, dtype, shape, seed):
    """Shift counts inside [0, bit width): torch 1.13's results outside it depend on the CPU's vector width."""
    width = torch.iinfo(getattr(torch, dtype)).bits
    return np.random.default_rng(seed).integers(0, width, shape).astype(dtype)


@pytest.mark.parametrize("name", LOGIC + INT_ONLY)
@pytest.mark.parametrize("dtype", INTS + ["bool", "float32", "float64"])
def test_values_against_torch(name, dtype):
    torch = requires_torch()
    if dtype.startswith("float") or (dtype == "bool" and name in INT_ONLY):
        a = ct.ones(3).to(getattr(ct, dtype))
        with pytest.raises(TypeError, match=name + ": not implemented for " + dtype):
            getattr(ct, name)(a, a)
        return
    a, ta = pair(torch, data(dtype, (3, 1, 4), 1), dtype)
    arr = counts(torch, dtype, (2, 4), 2) if "shift" in name else data(dtype, (2, 4), 2)
    b, tb = pair(torch, arr, dtype)
    check(getattr(ct, name)(a, b), getattr(torch, name)(ta, tb))
    check(getattr(a, name)(b), getattr(torch, name)(ta, tb))


@pytest.mark.parametrize("name", LOGIC + INT_ONLY)
@pytest.mark.parametrize("da,db", [("int32", "int64"), ("uint8", "int8"), ("bool", "int16"), ("int8", "int64")])
def test_mixed_dtypes_follow_torch(name, da, db):
    torch = requires_torch()
    a, ta = pair(torch, data(da, (2, 3), 3), da)
    b, tb = pair(torch, counts(torch, "int8", (3,), 4) if "shift" in name else data(db, (3,), 4), db)
    check(getattr(ct, name)(a, b), getattr(torch, name)(ta, tb))


@pytest.mark.parametrize("dtype", INTS + ["bool"])
def test_bitwise_not_and_invert(dtype):
    torch = requires_torch()
    a, ta = pair(torch, data(dtype, (5,), 5), dtype)
    check(ct.bitwise_not(a), torch.bitwise_not(ta))
    check(~a, ~ta)
    with pytest.raises(TypeError, match="bitwise_not"):
        ~ct.tensor([1.5])


def test_operators_and_numbers_as_torch():
    torch = requires_torch()
    x, tx = ct.tensor([5, -3, 0, 7]), torch.tensor([5, -3, 0, 7])
    y, ty = ct.tensor([3, 2, 1, 4], dtype=ct.int32), torch.tensor([3, 2, 1, 4], dtype=torch.int32)
    for f in (lambda a, b: a & b, lambda a, b: a | b, lambda a, b: a ^ b, lambda a, b: a << b, lambda a, b: a >> b,
              lambda a, b: a & 6, lambda a, b: 6 | a, lambda a, b: a ^ True, lambda a, b: a << 2, lambda a, b: 2 << b,
              lambda a, b: a >> 1, lambda a, b: 64 >> b):
        check(f(x, y), f(tx, ty))
    m, tm = ct.tensor([True, False, True]), torch.tensor([True, False, True])
    check(m & ct.tensor([True, True, False]), tm & torch.tensor([True, True, False]))
    check(m | 0, tm | 0)
    for op in ("__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"):
        a, ta = ct.tensor([5, -3, 12]), torch.tensor([5, -3, 12])
        r = getattr(a, op)(ct.tensor([1, 2, 3]))
        getattr(ta, op)(torch.tensor([1, 2, 3]))
        assert r is a
        check(a, ta)
    with pytest.raises(TypeError, match="bitwise_or"):
        x | 1.5


@pytest.mark.parametrize("name", LOGIC + INT_ONLY + ["bitwise_not"])
def test_inplace_methods(name):
    torch = requires_torch()
    a, ta = ct.tensor([12, -18, 0, 7]), torch.tensor([12, -18, 0, 7])
    args = [] if name == "bitwise_not" else [ct.tensor([8, 3, 5, 2])]
    targs = [] if name == "bitwise_not" else [torch.tensor([8, 3, 5, 2])]
    assert getattr(a, name + "_")(*args) is a
    getattr(ta, name + "_")(*targs)
    check(a, ta)


def test_gcd_lcm_of_negatives_and_zero():
    torch = requires_torch()
    a = [-12, 0, 0, 7, 12, -5, 9]
    b = [18, 0, -5, -14, 18, -5, 0]
    for dtype in ("int64", "int32", "int16", "int8"):
        x, tx = pair(torch, np.array(a), dtype)
        y, ty = pair(torch, np.array(b), dtype)
        check(ct.gcd(x, y), torch.gcd(tx, ty))
        check(ct.lcm(x, y), torch.lcm(tx, ty))
    # narrow types as torch: computed in int, the magnitude taken before narrowing
    x, tx = pair(torch, np.array([100, -100, 100, 120]), "int8")
    y, ty = pair(torch, np.array([3, 3, 2, 5]), "int8")
    check(ct.lcm(x, y), torch.lcm(tx, ty))


def test_shift_counts_outside_the_width():
    torch = requires_torch()
    # narrow types: torch 1.13 computes in int, so it agrees with the defined rule
    for dtype in ("int8", "int16", "uint8"):
        x, tx = pair(torch, np.array([1, 100, 3]), dtype)
        for c in (8, 9, 15, 16, 17):
            s, ts = pair(torch, np.array([c]), dtype)
            check(ct.bitwise_left_shift(x, s), torch.bitwise_left_shift(tx, ts))
            check(ct.bitwise_right_shift(x, s), torch.bitwise_right_shift(tx, ts))
    # wide types: counts >= the width shift every bit out (0, or the sign fill for >>), as torch 2
    x = ct.tensor([1, -1, -8, 5])
    for c in (64, 65, 100, -1):
        assert ct.bitwise_left_shift(x, c).tolist() == [0, 0, 0, 0]
        assert ct.bitwise_right_shift(x, c).tolist() == [0, -1, -1, 0]
    assert (ct.tensor([5, -5], dtype=ct.int32) >> 40).tolist() == [0, -1]
    assert (ct.tensor([1]) << 63).tolist() == [-2 ** 63]


def test_no_gradient_and_empty():
    x = ct.zeros(0, 3, dtype=ct.int64)
    for name in LOGIC + INT_ONLY:
        assert tuple(getattr(ct, name)(x, ct.tensor(3)).shape) == (0, 3)
    assert tuple(ct.bitwise_not(x).shape) == (0, 3)
    assert tuple(ct.gcd(ct.tensor(4), ct.tensor(6)).shape) == ()
