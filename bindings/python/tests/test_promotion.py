"""torch's type promotion queries (promote_types, can_cast, result_type) against torch 1.13 over every pair of
dtypes and over tensors, 0-d tensors and Python numbers; in-place ops that would need a cast to a lower category
(an integer tensor's sqrt_) raise as in torch instead of casting silently."""
import pytest

import ctensor as ct
from conftest import requires_torch

NAMES = ["float32", "float64", "int32", "int64", "uint8", "bool", "float16", "bfloat16", "int8", "int16",
         "complex64", "complex128"]


def ct_dtype(name):
    return getattr(ct, "bool_" if name == "bool" else name)


@pytest.mark.parametrize("a", NAMES)
def test_promote_types_and_can_cast_as_torch(a):
    torch = requires_torch()
    for b in NAMES:
        want = torch.promote_types(getattr(torch, a), getattr(torch, b))
        assert ct.promote_types(ct_dtype(a), ct_dtype(b)).name == str(want).replace("torch.", ""), (a, b)
        assert ct.can_cast(ct_dtype(a), ct_dtype(b)) == torch.can_cast(getattr(torch, a), getattr(torch, b)), (a, b)
    assert ct.promote_types(a, "float64") == ct.promote_types(ct_dtype(a), ct.float64)  # names work too


def values(torch, name, zero_d):
    return torch.ones(() if zero_d else (2,), dtype=getattr(torch, name))


@pytest.mark.parametrize("a", NAMES)
def test_result_type_as_torch(a):
    torch = requires_torch()
    ta = values(torch, a, False)
    x = ct.ones((2,), dtype=ct_dtype(a))
    others = [(2, 2), (2.5, 2.5), (1 + 2j, 1 + 2j), (True, True), (False, False)]  # a bool keeps a's dtype
    for b in NAMES:
        for zero_d in (False, True):
            tb = values(torch, b, zero_d)
            y = ct.ones(tb.shape, dtype=ct_dtype(b))
            others.append((y, tb))
    for mine, theirs in others:
        want = str(torch.result_type(ta, theirs)).replace("torch.", "")
        if want == "complex32":  # torch's complex32 (float16 with a complex operand) is complex64 here (docs/dtypes.md)
            assert ct.result_type(x, mine).name == "complex64"
            continue
        assert ct.result_type(x, mine).name == want, (a, theirs)
        assert ct.result_type(mine, x).name == str(torch.result_type(theirs, ta)).replace("torch.", ""), (a, theirs)


def test_inplace_refuses_a_cast_to_a_lower_category():
    torch = requires_torch()
    for op, arg in [("sqrt_", ()), ("exp_", ()), ("pow_", (0.5,)), ("sigmoid_", ())]:
        with pytest.raises(RuntimeError):
            getattr(torch.arange(4), op)(*arg)
        x = ct.arange(4)
        with pytest.raises(TypeError, match="can't be cast to the desired output type int64"):
            getattr(x, op)(*arg)
        assert x.tolist() == [0, 1, 2, 3]  # untouched
    y = ct.arange(4)
    y.pow_(2)  # an integer result stays allowed
    assert y.tolist() == [0, 1, 4, 9]
    z = ct.tensor([1.5, -2.5], dtype=ct.float64)
    z.floor_()
    assert z.tolist() == [1.0, -3.0]


def test_errors():
    with pytest.raises(TypeError):
        ct.result_type("a", ct.ones(2))
    with pytest.raises((TypeError, ValueError)):
        ct.promote_types("nope", ct.float32)
