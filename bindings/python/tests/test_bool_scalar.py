"""Python bools with tensors (issue 15) against torch 1.13: a bool is a wrapped bool scalar (ct_wrapped_scalar_bool),
so it never changes a tensor's dtype (bool + True stays bool). Every operator on either side, the functions that
take a number, and the in-place forms, with True and False, for every dtype, 0-d and n-d: the same dtype and values
as torch, or an error where torch raises one (t - True on any dtype, bool // True, bitwise ops on floats, ...)."""
import numpy as np
import pytest

import ctensor as ct

torch = pytest.importorskip("torch")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
ERRORS = (TypeError, ValueError, RuntimeError, ZeroDivisionError, NotImplementedError)


def binary(name, f):
    return [(name, f, f), ("r" + name, lambda a, s: f(s, a), lambda a, s: f(s, a))]


def tensor_arg(lib):  # torch's maximum / logical_and take tensors only: a 0-d bool tensor promotes as the bool
    return (lambda s: s) if lib is ct else (lambda s: torch.tensor(s))


def torch_pow(a, s):
    # torch 1.13's complex pow with a tensor exponent gives nan for 0 ** 0 (a bool is such an exponent there), its
    # number path 1; ctensor gives 1 for every form (docs/dtypes.md: ctensor follows the mathematics)
    return a ** int(s) if a.is_complex() and not s else a ** s


def torch_rpow(a, s):  # False ** 0j: the same nan of torch's, 1 here
    r = s ** a
    return torch.where(a == 0, torch.ones_like(r), r) if a.is_complex() and not s else r


# (name, ctensor form, torch form); each gets (tensor, bool)
OPS = (binary("add", lambda a, s: a + s) + binary("sub", lambda a, s: a - s) + binary("mul", lambda a, s: a * s)
       + binary("div", lambda a, s: a / s) + binary("floordiv", lambda a, s: a // s)
       + [("pow", lambda a, s: a ** s, torch_pow), ("rpow", lambda a, s: s ** a, torch_rpow)]
       + binary("mod", lambda a, s: a % s)
       + binary("and", lambda a, s: a & s) + binary("or", lambda a, s: a | s) + binary("xor", lambda a, s: a ^ s)
       + [("eq", lambda a, s: a == s, lambda a, s: a == s), ("ne", lambda a, s: a != s, lambda a, s: a != s),
          ("lt", lambda a, s: a < s, lambda a, s: a < s), ("ge", lambda a, s: s >= a, lambda a, s: s >= a),
          ("add_alpha", lambda a, s: ct.add(a, s, alpha=2), lambda a, s: torch.add(a, s, alpha=2)),
          ("true_divide", lambda a, s: ct.true_divide(a, s), lambda a, s: torch.true_divide(a, s)),
          ("where", lambda a, s: ct.where(a != 0, a, s), lambda a, s: torch.where(a != 0, a, s)),
          ("where_first", lambda a, s: ct.where(a == 0, s, a), lambda a, s: torch.where(a == 0, s, a)),
          ("maximum", lambda a, s: ct.maximum(a, s), lambda a, s: torch.maximum(a, torch.tensor(s))),
          ("minimum", lambda a, s: ct.minimum(a, s), lambda a, s: torch.minimum(a, torch.tensor(s))),
          ("atan2", lambda a, s: ct.atan2(a, s), lambda a, s: torch.atan2(a, torch.tensor(s))),
          ("logical_and", lambda a, s: ct.logical_and(a, s), lambda a, s: torch.logical_and(a, torch.tensor(s))),
          ("logical_xor", lambda a, s: ct.logical_xor(a, s), lambda a, s: torch.logical_xor(a, torch.tensor(s))),
          ("clamp_min", lambda a, s: ct.clamp(a, min=s), lambda a, s: torch.clamp(a, min=s))])


def inplace(name):
    def f(a, s):
        b = a.clone()
        getattr(b, name)(s)
        return b

    def f_torch(a, s):  # complex **= False: torch's nan for 0 ** 0 as in torch_pow
        return f(a, int(s) if name == "__ipow__" and a.is_complex() and not s else s)
    return ("i" + name, f, f_torch)


INPLACE = [inplace(n) for n in ("__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__ipow__",
                                "__imod__", "__iand__", "__ior__", "__ixor__")]


def pair(dt, zero_d):
    vals = [3] if zero_d else [1, 0, 3, -2, 2]
    t = torch.tensor(vals).to(getattr(torch, dt))
    if zero_d:
        t = t.reshape(())
    return ct.tensor(t.tolist(), dtype=getattr(ct, "bool_" if dt == "bool" else dt)), t


def dname(d):
    return str(d).replace("torch.", "").replace("ctensor.", "")


def same(r, tr, what):
    assert dname(r.dtype) == dname(tr.dtype), (what, r.dtype, tr.dtype)
    want = tr.to(torch.float64) if tr.dtype in (torch.float16, torch.bfloat16) else tr
    got = np.asarray(r.to(ct.float64) if dname(r.dtype) in ("float16", "bfloat16") else r)
    assert list(got.shape) == list(tr.shape), what
    np.testing.assert_array_equal(got, want.numpy(), err_msg=str(what))


def torch_result(f, t, s):
    """f(t, s) in torch; where torch 1.13's CPU has no float16 kernel (clamp_min) ctensor computes in float32 and
    rounds once (docs/dtypes.md), so that is the reference."""
    try:
        return f(t, s)
    except RuntimeError as e:
        if "not implemented for 'Half'" not in str(e):
            raise
        r = f(t.to(torch.float32), s)
        return r.to(torch.float16) if r.is_floating_point() else r


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("zero_d", [False, True], ids=["n-d", "0-d"])
def test_ops_with_a_python_bool_match_torch(dt, zero_d):
    c, t = pair(dt, zero_d)
    for s in (True, False):
        for name, f_ct, f_torch in OPS + INPLACE:
            if dt.startswith("complex") and name.startswith("logical"):
                continue  # ctensor refuses complex logical ops with any operand (torch computes them)
            what = (name, dt, s, "0-d" if zero_d else "n-d")
            try:
                tr = torch_result(f_torch, t, s)
            except ERRORS:
                with pytest.raises(ERRORS):
                    f_ct(c, s)
                continue
            same(f_ct(c, s), tr, what)
    assert c.tolist() == pair(dt, zero_d)[0].tolist()  # the in-place forms worked on clones


def test_subtraction_with_a_bool_names_the_op_and_dtypes():
    # torch: "Subtraction, the `-` operator, with two bool tensors is not supported"
    with pytest.raises(TypeError, match=r"sub: .*bool - bool"):
        ct.tensor([True, False]) - True
    with pytest.raises(TypeError, match=r"sub: .*bool - float32"):
        True - ct.ones(2)
    with pytest.raises(TypeError, match="floor_divide"):
        ct.tensor([True]) // True


def test_result_type_of_a_bool_is_the_tensor_dtype():
    for dt in DTYPES:
        x = ct.ones((2,), dtype=getattr(ct, "bool_" if dt == "bool" else dt))
        assert dname(ct.result_type(x, True)) == dname(torch.result_type(torch.ones(2, dtype=getattr(torch, dt)), True))
        assert dname(ct.result_type(False, x)) == dt
    r = ct.tensor([True, False]) + True
    assert dname(r.dtype) == "bool" and r.tolist() == [True, True]
