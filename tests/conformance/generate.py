"""generate.py - writes the conformance cases (cases/*.json) with expected values computed by PyTorch 1.13
(Debian's python3-torch), independently of ctensor. Each case: an op of abi/ops.tsv, its inputs (dtype, shape,
values, requires_grad) and arguments, and either the expected outputs (dtype, shape, values) with, for
differentiable ops, the expected input gradients for a given grad_output, or the expected error (a ct_status
name). Non-finite values are written as the strings "nan", "inf", "-inf". Each group is written twice from the same
case list: cases/<group>.json, and cases/<group>.toml for runners whose language has a TOML reader but no JSON one
in reach (Julia 1.5's Pkg.TOML; see to_toml). Deterministic: the same torch gives the same files, which
check_generated.py checks.
Usage: python3 generate.py [OUT_DIR]   (default: cases/ beside this file)"""
import json
import math
import os
import re
import sys
import zlib

import torch

DTYPES = {"float32": torch.float32, "float64": torch.float64, "int32": torch.int32, "int64": torch.int64,
          "uint8": torch.uint8, "bool": torch.bool}
# the half dtypes: only the "half" group uses them (issue 15; the other groups iterate over DTYPES)
ALL_DTYPES = dict(DTYPES, float16=torch.float16, bfloat16=torch.bfloat16)
# the complex dtypes: only the "complex" group uses them (issue 15); their values are (re, im) pairs interleaved
COMPLEXES = ("complex64", "complex128")
ALL_DTYPES.update(complex64=torch.complex64, complex128=torch.complex128)
NAMES = {v: k for k, v in ALL_DTYPES.items()}
FLOATS = ("float32", "float64")
HALVES = ("float16", "bfloat16")


def encode(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def tensor_json(t, requires_grad=False):
    t = t.detach()
    flat = (torch.view_as_real(t.resolve_conj()) if t.is_complex() else t).reshape(-1).tolist()  # complex: re, im, ...
    j = {"dtype": NAMES[t.dtype], "shape": list(t.shape), "values": [encode(v) for v in flat]}
    if requires_grad:
        j["requires_grad"] = True
    return j


def toml_value(v):
    """One TOML 0.5 value on one line. TOML has no null (a None dict entry is left out, a None list item becomes
    the empty table {}), and TOML 0.5 arrays are homogeneous, so a values array that holds a "nan"/"inf" string
    is written all as strings (readers parse each string as a number)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return repr(v)
    if isinstance(v, float):  # repr without an exponent's leading zeros ("1e-05" -> "1e-5"), which TOML forbids
        return re.sub(r"e([+-]?)0+(?=\d)", r"e\1", repr(v))
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string (ASCII, escaped the same way)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items() if x is not None) + "}"
    if any(isinstance(x, str) for x in v) and any(isinstance(x, (int, float)) for x in v):
        v = [x if isinstance(x, str) else toml_value(x) for x in v]
    return "[" + ", ".join("{}" if x is None else toml_value(x) for x in v) + "]"


def to_toml(header, cases):
    """The case file as TOML: the header's keys, then one [[cases]] table per case."""
    lines = [f"{k} = {toml_value(v)}" for k, v in header.items()]
    for case in cases:
        lines += ["", "[[cases]]"] + [f"{k} = {toml_value(v)}" for k, v in case.items() if v is not None]
    return "\n".join(lines) + "\n"


class Rng:
    """A small deterministic generator (no dependence on torch's RNG across versions)."""

    def __init__(self, seed):
        self.state = seed * 6364136223846793005 + 1442695040888963407

    def next(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 11) / float(1 << 53)

    def tensor(self, shape, dtype, lo=-2.0, hi=2.0):
        n = math.prod(shape)
        if dtype == "bool":
            vals = [self.next() < 0.5 for _ in range(n)]
        elif dtype in FLOATS + HALVES:  # half values: the rounded 3-decimal draws
            vals = [round(lo + (hi - lo) * self.next(), 3) for _ in range(n)]
        elif dtype in COMPLEXES:  # real and imaginary parts each a rounded draw in [lo, hi)
            vals = [complex(round(lo + (hi - lo) * self.next(), 3), round(lo + (hi - lo) * self.next(), 3))
                    for _ in range(n)]
        else:
            lo_i, hi_i = (0, 9) if dtype == "uint8" else (-9, 9)
            vals = [int(lo_i + (hi_i - lo_i + 1) * self.next()) for _ in range(n)]
        return torch.tensor(vals, dtype=ALL_DTYPES[dtype]).reshape(shape)


class Cases:
    def __init__(self):
        self.cases = []
        self.ids = set()

    def add(self, case):
        assert case["id"] not in self.ids, case["id"]
        self.ids.add(case["id"])
        self.cases.append(case)

    def run(self, cid, op, fn, inputs, args=None, differentiable=True, note=None, grad_inputs=None):
        """Computes fn(*inputs) with torch; records outputs and (differentiable, floating) gradients, or the error."""
        case = {"id": cid, "op": op, "inputs": [], "args": args or {}}
        if note:
            case["note"] = note
        leaves = []
        for i, x in enumerate(inputs):
            if isinstance(x, bool):  # a language's bool: torch gets the Python bool itself
                case["inputs"].append({"bool_scalar": int(x)})
                leaves.append(x)
                continue
            if isinstance(x, (int, float)):
                case["inputs"].append({"scalar": encode(x)})
                leaves.append(torch.tensor(x))  # a 0-d tensor promotes like a Python scalar (by category only)
                continue
            if isinstance(x, complex):  # a language's complex number: torch gets the Python complex itself
                case["inputs"].append({"complex_scalar": [encode(x.real), encode(x.imag)]})
                leaves.append(x)
                continue
            wants = differentiable and x.dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16,
                                                   torch.complex64, torch.complex128) and \
                (grad_inputs is None or i in grad_inputs)
            leaf = x.clone().requires_grad_(wants)
            case["inputs"].append(tensor_json(x, wants))
            leaves.append(leaf)
        try:
            out = fn(*leaves)
        except (RuntimeError, ValueError, IndexError, TypeError) as e:
            raise AssertionError(f"{cid}: torch failed ({e}); add it as an error case instead")
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        expect = {"outputs": [tensor_json(o) for o in outs]}
        diff_leaves = [l for l in leaves if isinstance(l, torch.Tensor) and l.requires_grad]
        if diff_leaves and outs[0].requires_grad:
            rng = Rng(len(self.cases) + 1)
            go = rng.tensor(list(outs[0].shape), NAMES[outs[0].dtype], -1.0, 1.0)
            grads = torch.autograd.grad(outs[0], diff_leaves, go, allow_unused=True)
            expect["grad_output"] = tensor_json(go)
            expect["grads"] = []
            it = iter(grads)
            for l in leaves:
                if isinstance(l, torch.Tensor) and l.requires_grad:
                    g = next(it)
                    expect["grads"].append(tensor_json(torch.zeros_like(l) if g is None else g))
                else:
                    expect["grads"].append(None)
        case["expect"] = expect
        self.add(case)

    def error(self, cid, op, inputs, status, args=None, note=None):
        case = {"id": cid, "op": op, "inputs": [], "args": args or {}, "error": status}
        if note:
            case["note"] = note
        for x in inputs:
            case["inputs"].append({"bool_scalar": int(x)} if isinstance(x, bool) else
                                  {"scalar": encode(x)} if isinstance(x, (int, float)) else
                                  {"complex_scalar": [encode(x.real), encode(x.imag)]} if isinstance(x, complex) else
                                  tensor_json(x))
        self.add(case)


SHAPES = [[], [0], [5], [2, 3], [3, 1, 2]]
SPECIAL = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-30, -1e30, 0.5])

UNARY = {
    "neg": torch.neg, "abs": torch.abs, "sign": torch.sign, "exp": torch.exp, "log": torch.log,
    "log1p": torch.log1p, "expm1": torch.expm1, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "sin": torch.sin,
    "cos": torch.cos, "tan": torch.tan, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": torch.relu,
    "gelu": torch.nn.functional.gelu, "silu": torch.nn.functional.silu, "softplus": torch.nn.functional.softplus,
    "floor": torch.floor, "ceil": torch.ceil, "round": torch.round, "reciprocal": torch.reciprocal,
}
NONDIFF = {"sign", "floor", "ceil", "round", "logical_not", "floor_divide", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
           "logical_or", "logical_xor", "all", "any", "argmax", "argmin", "argmax_all", "argmin_all"}
POSITIVE = {"log", "sqrt", "rsqrt"}  # differentiable inputs kept away from the domain edge
INT_UNARY = {"neg", "abs", "sign"}


def unary(c):
    for op, fn in UNARY.items():
        for dtype in FLOATS:
            for shape in SHAPES:
                rng = Rng(zlib.crc32(f"{op}/{dtype}".encode()) % 1000 + len(c.cases))
                lo = 0.2 if op in POSITIVE else -2.0
                x = rng.tensor(shape, dtype, lo, 2.0)
                c.run(f"{op}/{dtype}/{'x'.join(map(str, shape)) or 'scalar'}", op, fn, [x],
                      differentiable=op not in NONDIFF)
            x = SPECIAL.to(DTYPES[dtype])
            if op == "sign":  # a deliberate difference from torch 1.13, which gives sign(NaN) = 0
                c.run(f"{op}/{dtype}/special", op, lambda t: torch.where(t.isnan(), t, torch.sign(t)), [x],
                      differentiable=False, note="ctensor keeps NaN (NumPy's rule): sign(NaN) = NaN, torch gives 0")
            else:
                c.run(f"{op}/{dtype}/special", op, fn, [x], differentiable=False)
        if op in INT_UNARY:
            for dtype in ("int32", "int64"):
                x = Rng(len(c.cases)).tensor([2, 3], dtype)
                c.run(f"{op}/{dtype}/2x3", op, fn, [x], differentiable=False)
                edges = torch.tensor([torch.iinfo(DTYPES[dtype]).max, torch.iinfo(DTYPES[dtype]).min, -1, 0],
                                     dtype=DTYPES[dtype])
                c.run(f"{op}/{dtype}/edges", op, fn, [edges], differentiable=False)
    for dtype in ("bool", "float32", "int64"):
        x = Rng(len(c.cases)).tensor([4], dtype)
        c.run(f"logical_not/{dtype}/4", "logical_not", torch.logical_not, [x], differentiable=False)
    for e in (2.0, 0.5, -1.0, 3.0, 0.0):
        for dtype in FLOATS:
            x = Rng(len(c.cases)).tensor([2, 3], dtype, 0.2, 2.0)
            c.run(f"pow_scalar/{dtype}/e{e}", "pow_scalar", lambda t, e=e: torch.pow(t, e), [x], {"exponent": e})
    for lo, hi in ((-0.5, 0.5), (None, 0.0), (0.0, None), (1.0, -1.0)):
        for dtype in FLOATS:
            x = Rng(len(c.cases)).tensor([3, 4], dtype)
            c.run(f"clamp/{dtype}/{lo}_{hi}", "clamp", lambda t, lo=lo, hi=hi: torch.clamp(t, lo, hi), [x],
                  {"min": lo, "max": hi})

    unary_math(c)


# unary math (issue 14): op -> (torch function, low, high of the random inputs, torch's special values agree)
UNARY_MATH = {
    "asin": (torch.asin, -0.9, 0.9, True), "acos": (torch.acos, -0.9, 0.9, True), "atan": (torch.atan, -3, 3, True),
    "sinh": (torch.sinh, -2, 2, True), "cosh": (torch.cosh, -2, 2, True), "asinh": (torch.asinh, -3, 3, True),
    "acosh": (torch.acosh, 1.2, 4, True), "atanh": (torch.atanh, -0.9, 0.9, True),
    "erf": (torch.erf, -2, 2, True), "erfc": (torch.erfc, -2, 2, True), "erfinv": (torch.erfinv, -0.9, 0.9, True),
    "lgamma": (torch.lgamma, 0.2, 5, True), "digamma": (torch.digamma, 0.3, 5, True),
    "logit": (torch.logit, 0.05, 0.95, True), "sinc": (torch.sinc, -2.5, 2.5, True), "sgn": (torch.sgn, -2, 2, False),
    "deg2rad": (torch.deg2rad, -400, 400, True), "rad2deg": (torch.rad2deg, -7, 7, True),
    "signbit": (torch.signbit, -2, 2, True), "isposinf": (torch.isposinf, -2, 2, True),
    "isneginf": (torch.isneginf, -2, 2, True), "positive": (torch.positive, -2, 2, True),
    "i0": (torch.i0, -5, 5, False),  # torch's Chebyshev i0 gives NaN at +-inf (ctensor: inf)
}
UNARY_MATH_NONDIFF = {"signbit", "isposinf", "isneginf", "sgn"}  # sgn: zero gradient (torch: an unallocated zero tensor)


def unary_math(c):
    for op, (fn, lo, hi, special) in UNARY_MATH.items():
        for dtype in FLOATS:
            for shape in ([], [0], [2, 3]):
                x = Rng(zlib.crc32(f"{op}/{dtype}".encode()) % 1000 + len(c.cases)).tensor(shape, dtype, lo, hi)
                # torch 1.13's trigamma (digamma's derivative) is accurate to ~5e-10 relative, outside the float64
                # tolerance: those gradients are checked against mpmath in bindings/python/tests/test_unary_math.py
                loose = op == "digamma" and dtype == "float64"
                c.run(f"{op}/{dtype}/{'x'.join(map(str, shape)) or 'scalar'}", op, fn, [x],
                      differentiable=op not in UNARY_MATH_NONDIFF and not loose,
                      note="values only: torch's trigamma is accurate to ~5e-10" if loose else None)
            if special:
                c.run(f"{op}/{dtype}/special", op, fn, [SPECIAL.to(DTYPES[dtype])], differentiable=False)
        x = Rng(len(c.cases)).tensor([4], "int64", -3, 3)
        if op in ("sgn", "signbit", "isposinf", "isneginf", "positive", "deg2rad", "rad2deg") or lo < 0 < hi:
            c.run(f"{op}/int64/4", op, fn, [x], differentiable=False)
    for eps in (0.0, 0.1, 0.5):
        for dtype in FLOATS:
            x = Rng(len(c.cases)).tensor([2, 3], dtype, -0.2, 1.2)
            c.run(f"logit/{dtype}/eps{eps}", "logit", lambda t, eps=eps: torch.logit(t, eps), [x], {"eps": eps})


BINARY = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div, "pow": torch.pow,
    "maximum": torch.maximum, "minimum": torch.minimum, "atan2": torch.atan2, "remainder": torch.remainder,
    "floor_divide": torch.floor_divide,
    "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt, "ge": torch.ge,
    "logical_and": torch.logical_and, "logical_or": torch.logical_or, "logical_xor": torch.logical_xor,
}
BROADCASTS = [([2, 3], [2, 3]), ([2, 3], [3]), ([3, 1], [1, 4]), ([2, 1, 3], [4, 1]), ([], [2, 2]), ([0, 3], [3])]
FLOAT_ONLY = {"atan2", "pow"}


def binary(c):
    for op, fn in BINARY.items():
        dtypes = list(FLOATS) + ([] if op in FLOAT_ONLY else ["int64"])
        for dtype in dtypes:
            for sa, sb in BROADCASTS:
                rng = Rng(len(c.cases) + 7)
                lo = 0.3 if op == "pow" else -2.0
                a, b = rng.tensor(sa, dtype, lo, 2.0), rng.tensor(sb, dtype, lo, 2.0)
                if op in ("div", "remainder", "floor_divide") and dtype == "int64":
                    b = torch.where(b == 0, torch.ones_like(b), b)
                if op in ("div", "remainder", "floor_divide") and dtype in FLOATS:
                    b = torch.where(b.abs() < 0.1, torch.full_like(b, 0.5), b)
                c.run(f"{op}/{dtype}/{sa}_{sb}", op, fn, [a, b], differentiable=op not in NONDIFF)
        # type promotion with a second dtype and with Python scalars (wrapped scalars never upcast a tensor)
        a32 = Rng(len(c.cases)).tensor([2, 2], "float32", 0.3, 2.0)
        if op not in FLOAT_ONLY:
            i64 = Rng(len(c.cases) + 1).tensor([2, 2], "int64", 1, 9).clamp(min=1)
            c.run(f"{op}/promote/float32_int64", op, fn, [a32, i64], differentiable=op not in NONDIFF)
        c.run(f"{op}/promote/float32_scalar", op, fn, [a32, 1.5], differentiable=op not in NONDIFF)
        c.error(f"{op}/error/shape", op, [torch.zeros(2, 3), torch.zeros(4)], "CT_ERR_SHAPE")
    for alpha in (2.0, -0.5):
        for op, fn in (("add", torch.add), ("sub", torch.sub)):
            a, b = Rng(len(c.cases)).tensor([2, 3], "float64"), Rng(len(c.cases) + 3).tensor([3], "float64")
            c.run(f"{op}/alpha{alpha}", op, lambda x, y, fn=fn, alpha=alpha: fn(x, y, alpha=alpha), [a, b],
                  {"alpha": alpha})
    for sc, sa, sb in (([2, 3], [2, 3], [2, 3]), ([3], [2, 3], []), ([2, 1], [1, 3], [2, 3])):
        for dtype in FLOATS:
            rng = Rng(len(c.cases))
            cond, a, b = rng.tensor(sc, "bool"), rng.tensor(sa, dtype), rng.tensor(sb, dtype)
            c.run(f"where/{dtype}/{sc}_{sa}_{sb}", "where", torch.where, [cond, a, b], grad_inputs={1, 2})
    # integer edge values: arithmetic wraps in two's complement (torch's CPU results), division floors
    for dtype in ("int32", "int64"):
        hi, lo = torch.iinfo(DTYPES[dtype]).max, torch.iinfo(DTYPES[dtype]).min
        a = torch.tensor([hi, lo, -1, 0, hi, 7, lo, -7], dtype=DTYPES[dtype])
        b = torch.tensor([1, -1, lo, lo, hi, -3, 2, 2], dtype=DTYPES[dtype])
        for op in ("add", "sub", "mul", "maximum", "minimum", "lt", "eq"):
            c.run(f"{op}/{dtype}/edges", op, BINARY[op], [a, b], differentiable=False)
        d = torch.tensor([3, 2, 5, -4, hi, -3, 2, 2], dtype=DTYPES[dtype])  # never lo // -1 (x86 traps in torch)
        for op in ("floor_divide", "remainder"):
            c.run(f"{op}/{dtype}/edges", op, BINARY[op], [a, d], differentiable=False)
    binary_math(c)


# ---- binary math (issue 14): part of the binary group ----
BINARY_MATH = {
    "logaddexp": torch.logaddexp, "logaddexp2": torch.logaddexp2, "hypot": torch.hypot, "xlogy": torch.xlogy,
    "copysign": torch.copysign, "fmax": torch.fmax, "fmin": torch.fmin, "heaviside": torch.heaviside,
    "nextafter": torch.nextafter,
}
BINARY_MATH_NONDIFF = {"heaviside", "nextafter"}    # torch 1.13 has no derivative for them
BINARY_MATH_INTS = {"xlogy", "copysign", "fmax", "fmin", "heaviside"}  # also integer inputs (others refuse them)
BINARY_MATH_NUMBERS = {"xlogy", "copysign"}          # torch takes a Python number as the second argument
INF, NAN = float("inf"), float("nan")
BINARY_MATH_EDGES = {
    "logaddexp": ([-INF, INF, -INF, 1000.0, NAN], [-INF, INF, 2.0, 1000.0, 1.0]),
    "logaddexp2": ([-INF, INF, -INF, 1000.0, NAN], [-INF, INF, 2.0, 1000.0, 1.0]),
    "hypot": ([INF, 3e30, 0.0, -INF], [NAN, 4e30, -0.0, 1.0]),
    "xlogy": ([0.0, 0.0, 0.0, 0.0, NAN, 1.0], [0.0, NAN, INF, -1.0, 1.0, 0.0]),
    "copysign": ([2.0, -3.0, NAN, 0.0], [-0.0, 0.0, -1.0, -INF]),
    "fmax": ([NAN, 1.0, NAN, -0.0, INF], [2.0, NAN, NAN, 0.0, NAN]),
    "fmin": ([NAN, 1.0, NAN, -0.0, -INF], [2.0, NAN, NAN, 0.0, NAN]),
    "heaviside": ([-1.0, 0.0, -0.0, 2.0, NAN, INF], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
    "nextafter": ([0.0, 1.0, 1.0, INF, NAN], [1.0, 1.0, 0.0, 0.0, 1.0]),
}


def binary_math(c):
    for op, fn in BINARY_MATH.items():
        diff = op not in BINARY_MATH_NONDIFF
        for dtype in list(FLOATS) + (["int64"] if op in BINARY_MATH_INTS else []):
            for sa, sb in BROADCASTS:
                rng = Rng(len(c.cases) + 11)
                a = rng.tensor(sa, dtype)
                b = rng.tensor(sb, dtype, 0.2, 3.0) if op == "xlogy" and dtype in FLOATS else rng.tensor(sb, dtype)
                c.run(f"{op}/{dtype}/{sa}_{sb}", op, fn, [a, b], differentiable=diff)
        a32 = Rng(len(c.cases)).tensor([2, 2], "float32", 0.3, 2.0)
        i64 = Rng(len(c.cases) + 1).tensor([2, 2], "int64", 1, 9).clamp(min=1)
        if op == "heaviside":
            c.error(f"{op}/error/dtypes", op, [a32, a32.double()], "CT_ERR_DTYPE")
        else:
            c.run(f"{op}/promote/float32_int64", op, fn, [a32, i64], differentiable=diff)
        if op in BINARY_MATH_NUMBERS:
            c.run(f"{op}/promote/float32_scalar", op, fn, [a32, 1.5], differentiable=diff)
            c.run(f"{op}/promote/int64_scalar", op, fn, [i64, -2.5], differentiable=False)
        if op not in BINARY_MATH_INTS:
            c.error(f"{op}/error/int64", op, [i64, i64], "CT_ERR_DTYPE")
        c.error(f"{op}/error/shape", op, [torch.zeros(2, 3), torch.zeros(4)], "CT_ERR_SHAPE")
        x, y = BINARY_MATH_EDGES[op]
        for dtype in FLOATS:
            xs, ys = torch.tensor(x, dtype=DTYPES[dtype]), torch.tensor(y, dtype=DTYPES[dtype])
            c.run(f"{op}/{dtype}/edges", op, fn, [xs, ys], differentiable=False)
    integer_ops(c)


INTEGER_OPS = {
    "bitwise_and": torch.bitwise_and, "bitwise_or": torch.bitwise_or, "bitwise_xor": torch.bitwise_xor,
    "bitwise_left_shift": torch.bitwise_left_shift, "bitwise_right_shift": torch.bitwise_right_shift,
    "gcd": torch.gcd, "lcm": torch.lcm,
}


def integer_ops(c):
    """The integer ops of issue 14 (no gradient). Shift counts stay inside the bit width: torch 1.13's results
    outside it depend on the CPU (ctensor's rule is Note [Shift counts], tested by each binding's own tests)."""
    for op, fn in INTEGER_OPS.items():
        for dtype in ("int64", "int32") + (("bool",) if op.startswith("bitwise_") and "shift" not in op else ()):
            for sa, sb in BROADCASTS:
                rng = Rng(len(c.cases) + 13)
                a, b = rng.tensor(sa, dtype), rng.tensor(sb, dtype)
                if "shift" in op:
                    b = b.abs()
                c.run(f"{op}/{dtype}/{sa}_{sb}", op, fn, [a, b], differentiable=False)
        i32 = Rng(len(c.cases)).tensor([2, 2], "int32")
        i64 = Rng(len(c.cases) + 1).tensor([2, 2], "int64").abs()
        c.run(f"{op}/promote/int32_int64", op, fn, [i32, i64], differentiable=False)
        c.error(f"{op}/error/float32", op, [i32.float(), i32.float()], "CT_ERR_DTYPE")
        c.error(f"{op}/error/shape", op, [torch.zeros(2, 3, dtype=torch.int64), torch.zeros(4, dtype=torch.int64)],
                "CT_ERR_SHAPE")
    for dtype in ("int64", "int32", "uint8", "bool"):
        x = Rng(len(c.cases)).tensor([2, 3], dtype)
        c.run(f"bitwise_not/{dtype}/[2, 3]", "bitwise_not", torch.bitwise_not, [x], differentiable=False)
    c.error("bitwise_not/error/float32", "bitwise_not", [torch.ones(2)], "CT_ERR_DTYPE")
    addc(c)


def addc(c):
    """addcmul / addcdiv (issue 14): broadcasting over three operands, the value argument, integer truncation."""
    for op, fn in (("addcmul", torch.addcmul), ("addcdiv", torch.addcdiv)):
        for dtype in FLOATS:
            for shapes in (([2, 3], [2, 3], [2, 3]), ([3], [2, 1], [1, 3]), ([], [2, 2], [2]), ([0, 3], [3], [1])):
                for value in (1.0, -0.5):
                    rng = Rng(len(c.cases) + 17)
                    s, t1 = rng.tensor(shapes[0], dtype), rng.tensor(shapes[1], dtype)
                    t2 = rng.tensor(shapes[2], dtype, 0.5, 2.0)
                    c.run(f"{op}/{dtype}/{shapes}/v{value}", op, lambda a, b, d, fn=fn, v=value: fn(a, b, d, value=v),
                          [s, t1, t2], {"value": value})
        i64 = Rng(len(c.cases)).tensor([2, 2], "int64", 1, 9)
        f32 = Rng(len(c.cases) + 1).tensor([2, 2], "float32", 0.5, 2.0)
        c.run(f"{op}/promote/int64_float32", op, lambda a, b, d, fn=fn: fn(a, b, d, value=2.0), [i64, f32, f32],
              {"value": 2.0})
        c.error(f"{op}/error/shape", op, [torch.zeros(2, 3), torch.zeros(4), torch.zeros(3)], "CT_ERR_SHAPE",
                {"value": 1.0})
    i64 = Rng(len(c.cases)).tensor([3], "int64")
    c.run("addcmul/int64/value_truncated", "addcmul", lambda a, b, d: torch.addcmul(a, b, d, value=2.7),
          [i64, i64, i64], {"value": 2.7}, differentiable=False)
    c.error("addcdiv/error/int64", "addcdiv", [i64, i64, i64.clamp(min=1)], "CT_ERR_DTYPE", {"value": 1.0})


REDUCE_DIMS = [None, [0], [1], [-1], [0, 1], [0, 2]]


def reductions(c):
    simple = {"sum": torch.sum, "mean": torch.mean, "prod": torch.prod, "logsumexp": torch.logsumexp}
    for op, fn in simple.items():
        for dtype in FLOATS:
            for dims in REDUCE_DIMS:
                for keepdim in (False, True):
                    if dims is None and (keepdim or op in ("prod", "logsumexp")):
                        continue
                    if op == "prod" and dims is not None and len(dims) != 1:
                        continue
                    x = Rng(len(c.cases)).tensor([2, 3, 4], dtype, -1.5, 1.5)
                    if op == "prod":
                        f = (lambda t, d=dims[0], k=keepdim: torch.prod(t, d, keepdim=k))
                    elif dims is None:
                        f = fn
                    else:
                        f = (lambda t, fn=fn, d=dims, k=keepdim: fn(t, d, keepdim=k))
                    c.run(f"{op}/{dtype}/{dims}/keepdim{int(keepdim)}", op, f, [x],
                          {"dims": dims, "keepdim": keepdim})
    for op, fn in (("var", torch.var), ("std", torch.std)):
        for dims in ([1], [0, 2], None):
            for correction in (0, 1):
                for keepdim in (False, True):
                    x = Rng(len(c.cases)).tensor([2, 3, 4], "float64")
                    d = dims if dims is not None else [0, 1, 2]
                    c.run(f"{op}/{dims}/c{correction}/keepdim{int(keepdim)}", op,
                          lambda t, fn=fn, d=d, cc=correction, k=keepdim: fn(t, d, unbiased=bool(cc), keepdim=k),
                          [x], {"dims": dims, "correction": correction, "keepdim": keepdim})
    for p in (1.0, 2.0, 3.0):
        for dims in (None, [1]):
            x = Rng(len(c.cases)).tensor([3, 4], "float64")
            c.run(f"norm/p{p}/{dims}", "norm", lambda t, p=p, d=dims: torch.linalg.vector_norm(t, p, d), [x],
                  {"p": p, "dims": dims, "keepdim": False})
    for op, fn in (("all", torch.all), ("any", torch.any)):
        for dtype in ("bool", "float32"):
            for dims in (None, [1]):
                x = Rng(len(c.cases)).tensor([3, 4], dtype)
                f = fn if dims is None else (lambda t, fn=fn, d=dims[0]: fn(t, d))
                c.run(f"{op}/{dtype}/{dims}", op, f, [x], {"dims": dims, "keepdim": False}, differentiable=False)
    for op, fn in (("max", torch.max), ("min", torch.min)):
        for dtype in ("float32", "float64", "int64"):
            x = Rng(len(c.cases)).tensor([3, 5], dtype)
            c.run(f"{op}/{dtype}", op, fn, [x])
            for dim in (0, 1, -1):
                for keepdim in (False, True):
                    x = Rng(len(c.cases)).tensor([3, 5], dtype)
                    c.run(f"{op}_dim/{dtype}/{dim}/keepdim{int(keepdim)}", f"{op}_dim",
                          lambda t, fn=fn, d=dim, k=keepdim: tuple(fn(t, d, keepdim=k)), [x],
                          {"dim": dim, "keepdim": keepdim})
        c.error(f"{op}/error/empty", op, [torch.zeros(0)], "CT_ERR_INDEX",
                note="max/min of an empty tensor has no value (torch: RuntimeError)")
    for op, fn in (("argmax", torch.argmax), ("argmin", torch.argmin)):
        for dtype in ("float32", "int64"):
            x = Rng(len(c.cases)).tensor([4, 3], dtype)
            c.run(f"{op}_all/{dtype}", f"{op}_all", fn, [x], differentiable=False)
            for dim in (0, 1):
                for keepdim in (False, True):
                    x = Rng(len(c.cases)).tensor([4, 3], dtype)
                    c.run(f"{op}/{dtype}/{dim}/keepdim{int(keepdim)}", op,
                          lambda t, fn=fn, d=dim, k=keepdim: fn(t, d, keepdim=k), [x],
                          {"dim": dim, "keepdim": keepdim}, differentiable=False)
    for op, fn in (("cumsum", torch.cumsum), ("cumprod", torch.cumprod)):
        for dtype in FLOATS:
            for dim in (0, 1, -1):
                x = Rng(len(c.cases)).tensor([3, 4], dtype, -1.5, 1.5)
                c.run(f"{op}/{dtype}/{dim}", op, lambda t, fn=fn, d=dim: fn(t, d), [x], {"dim": dim})
        c.error(f"{op}/error/dim", op, [torch.zeros(2, 3)], "CT_ERR_INDEX", {"dim": 2})


# view ops: (op, input shape, args, torch call); each runs for float32, float64 (with gradients) and int64
VIEWS = [
    ("reshape", [2, 3, 4], {"shape": [4, 6]}, lambda t: t.reshape(4, 6)),
    ("reshape", [2, 3, 4], {"shape": [-1, 4]}, lambda t: t.reshape(-1, 4)),
    ("reshape", [6], {"shape": [1, 2, 3]}, lambda t: t.reshape(1, 2, 3)),
    ("reshape", [], {"shape": [1]}, lambda t: t.reshape(1)),
    ("view", [2, 3, 4], {"shape": [2, 12]}, lambda t: t.view(2, 12)),
    ("view", [2, 3, 4], {"shape": [-1]}, lambda t: t.view(-1)),
    ("transpose", [2, 3, 4], {"dim0": 0, "dim1": 2}, lambda t: t.transpose(0, 2)),
    ("transpose", [2, 3, 4], {"dim0": 1, "dim1": -1}, lambda t: t.transpose(1, -1)),
    ("transpose", [2, 3], {"dim0": 0, "dim1": 1}, lambda t: t.transpose(0, 1)),
    ("permute", [2, 3, 4], {"dims": [2, 0, 1]}, lambda t: t.permute(2, 0, 1)),
    ("permute", [2, 3, 4], {"dims": [1, 0, 2]}, lambda t: t.permute(1, 0, 2)),
    ("squeeze", [2, 1, 3], {"dim": 1}, lambda t: t.squeeze(1)),
    ("squeeze", [1, 3], {"dim": 0}, lambda t: t.squeeze(0)),
    ("squeeze", [2, 1], {"dim": -1}, lambda t: t.squeeze(-1)),
    ("unsqueeze", [2, 3], {"dim": 0}, lambda t: t.unsqueeze(0)),
    ("unsqueeze", [2, 3], {"dim": 2}, lambda t: t.unsqueeze(2)),
    ("unsqueeze", [2, 3], {"dim": -1}, lambda t: t.unsqueeze(-1)),
    ("unsqueeze", [], {"dim": 0}, lambda t: t.unsqueeze(0)),
    ("expand", [3, 1], {"shape": [3, 4]}, lambda t: t.expand(3, 4)),
    ("expand", [1, 3], {"shape": [2, 2, 3]}, lambda t: t.expand(2, 2, 3)),
    ("expand", [3, 1], {"shape": [-1, 2]}, lambda t: t.expand(-1, 2)),
    ("flatten", [2, 3, 4], {"start_dim": 0, "end_dim": -1}, lambda t: t.flatten(0, -1)),
    ("flatten", [2, 3, 4], {"start_dim": 1, "end_dim": 2}, lambda t: t.flatten(1, 2)),
    ("flatten", [2, 3, 4], {"start_dim": 0, "end_dim": 1}, lambda t: t.flatten(0, 1)),
    ("narrow", [4, 5], {"dim": 0, "start": 1, "length": 2}, lambda t: t.narrow(0, 1, 2)),
    ("narrow", [4, 5], {"dim": 1, "start": 0, "length": 3}, lambda t: t.narrow(1, 0, 3)),
    ("narrow", [4, 5], {"dim": -1, "start": 2, "length": 3}, lambda t: t.narrow(-1, 2, 3)),
    ("slice", [6, 4], {"dim": 0, "start": 1, "end": 5, "step": 2}, lambda t: t[1:5:2]),
    ("slice", [6, 4], {"dim": 1, "start": 0, "end": 4, "step": 3}, lambda t: t[:, 0:4:3]),
    ("slice", [6, 4], {"dim": -1, "start": 1, "end": 3, "step": 1}, lambda t: t[..., 1:3]),
    ("select", [3, 4], {"dim": 0, "index": 1}, lambda t: t.select(0, 1)),
    ("select", [3, 4], {"dim": 1, "index": 3}, lambda t: t.select(1, 3)),
    ("select", [2, 3, 4], {"dim": 1, "index": 0}, lambda t: t.select(1, 0)),
    ("t", [2, 3], {}, lambda t: t.t()),
    ("diagonal", [3, 4], {"offset": 0, "dim1": 0, "dim2": 1}, lambda t: t.diagonal(0, 0, 1)),
    ("diagonal", [3, 4], {"offset": 1, "dim1": 0, "dim2": 1}, lambda t: t.diagonal(1, 0, 1)),
    ("diagonal", [3, 4], {"offset": -1, "dim1": 0, "dim2": 1}, lambda t: t.diagonal(-1, 0, 1)),
]
# writes through a view of a clone: (op, extra inputs' shapes, args, torch call on the view)
WRITES = [
    ("mul_", ["last"], {}, lambda v, o: v.mul_(o)),
    ("add_", ["view"], {"alpha": 2.0}, lambda v, o: v.add_(o, alpha=2.0)),
    ("sub_", ["last"], {"alpha": 1.0}, lambda v, o: v.sub_(o)),
    ("div_", ["view"], {}, lambda v, o: v.div_(o)),
    ("fill_", [], {"value": 0.5}, lambda v: v.fill_(0.5)),
    ("zero_", [], {}, lambda v: v.zero_()),
    ("copy_", ["last"], {}, lambda v, o: v.copy_(o)),
    ("clamp_", [], {"min": -0.5, "max": 0.5}, lambda v: v.clamp_(-0.5, 0.5)),
]
WRITE_VIEWS = [("transpose", {"dim0": 0, "dim1": 1}, lambda t: t.transpose(0, 1)),
               ("narrow", {"dim": 1, "start": 1, "length": 2}, lambda t: t.narrow(1, 1, 2)),
               ("select", {"dim": 0, "index": 1}, lambda t: t.select(0, 1)),
               ("slice", {"dim": 1, "start": 0, "end": 4, "step": 2}, lambda t: t[:, 0:4:2]),
               ("t", {}, lambda t: t.t())]


def views(c):
    for op, shape, args, fn in VIEWS:
        for dtype in FLOATS + ("int64",):
            x = Rng(len(c.cases)).tensor(shape, dtype)
            c.run(f"{op}/{dtype}/{'x'.join(map(str, shape)) or 'scalar'}/{json.dumps(args, sort_keys=True)}", op, fn,
                  [x], args)
    x = torch.zeros(2, 3)
    c.error("reshape/error/numel", "reshape", [x], "CT_ERR_SHAPE", {"shape": [4]})
    c.error("expand/error/shape", "expand", [x], "CT_ERR_SHAPE", {"shape": [4, 3]})
    c.error("narrow/error/range", "narrow", [x], "CT_ERR_INDEX", {"dim": 1, "start": 2, "length": 2})
    c.error("squeeze/error/dim", "squeeze", [x], "CT_ERR_INDEX", {"dim": 2})
    # in-place writes through views: y = x.clone(); op(view(y), ...); the output is y, gradients reach x and o
    for vop, vargs, vfn in WRITE_VIEWS:
        for op, extra, args, wfn in WRITES:
            rng = Rng(len(c.cases) + 3)
            x = rng.tensor([3, 4], "float64")
            vshape = list(vfn(x).shape)
            others = [rng.tensor(vshape if e == "view" else vshape[-1:], "float64", 0.5, 2.0) for e in extra]

            def f(x, *o, vfn=vfn, wfn=wfn):
                y = x.clone()
                wfn(vfn(y), *o)
                return y
            c.run(f"{op}/through_{vop}", op, f, [x] + others, dict(args, view=vop, view_args=vargs))


MATMULS = [([3], [3]), ([2, 3], [3]), ([3], [3, 4]), ([2, 3], [3, 4]), ([2, 2, 3], [2, 3, 4]), ([2, 2, 3], [3, 4]),
           ([1, 2, 3], [2, 3, 2])]


def linalg_nn(c):
    for dtype in FLOATS:
        for sa, sb in MATMULS:
            rng = Rng(len(c.cases))
            c.run(f"matmul/{dtype}/{sa}_{sb}", "matmul", torch.matmul, [rng.tensor(sa, dtype), rng.tensor(sb, dtype)])
        rng = Rng(len(c.cases))
        c.run(f"dot/{dtype}", "dot", torch.dot, [rng.tensor([4], dtype), rng.tensor([4], dtype)])
        c.run(f"outer/{dtype}", "outer", torch.outer, [rng.tensor([3], dtype), rng.tensor([4], dtype)])
        for sx, bias in (([2, 3], True), ([2, 3], False), ([2, 2, 3], True)):
            rng = Rng(len(c.cases))
            xs = [rng.tensor(sx, dtype), rng.tensor([4, 3], dtype)] + ([rng.tensor([4], dtype)] if bias else [])
            c.run(f"linear/{dtype}/{sx}/bias{int(bias)}", "linear", torch.nn.functional.linear, xs)
        for op, fn in (("softmax", torch.softmax), ("log_softmax", torch.log_softmax)):
            for shape, dim in (([3, 4], 0), ([3, 4], 1), ([3, 4], -1), ([2, 3, 4], 1), ([5], 0)):
                x = Rng(len(c.cases)).tensor(shape, dtype, -3.0, 3.0)
                c.run(f"{op}/{dtype}/{shape}/{dim}", op, lambda t, fn=fn, d=dim: fn(t, d), [x], {"dim": dim})
            x = torch.tensor([[0.0, float("-inf"), 1.0], [1e3, 1e3, -1e3]], dtype=DTYPES[dtype])
            c.run(f"{op}/{dtype}/special", op, lambda t, fn=fn: fn(t, 1), [x], {"dim": 1}, differentiable=False)
    c.error("matmul/error/shape", "matmul", [torch.zeros(2, 3), torch.zeros(4, 5)], "CT_ERR_SHAPE")
    c.error("dot/error/shape", "dot", [torch.zeros(3), torch.zeros(4)], "CT_ERR_SHAPE")
    c.error("linear/error/shape", "linear", [torch.zeros(2, 3), torch.zeros(4, 5)], "CT_ERR_SHAPE")
    c.error("softmax/error/dim", "softmax", [torch.zeros(2, 3)], "CT_ERR_INDEX", {"dim": 2})
    c.error("log_softmax/error/dim", "log_softmax", [torch.zeros(2, 3)], "CT_ERR_INDEX", {"dim": -3})


def indexing(c):
    for dtype in FLOATS:
        for shape, dim, idx in (([4, 3], 0, [2, 0, 2]), ([4, 3], 1, [1]), ([4, 3], -1, [0, 2, 1, 0]),
                                ([2, 3, 4], 1, [2, 0])):
            x = Rng(len(c.cases)).tensor(shape, dtype)
            c.run(f"index_select/{dtype}/{shape}/{dim}/{idx}", "index_select",
                  lambda t, i, d=dim: torch.index_select(t, d, i), [x, torch.tensor(idx)], {"dim": dim})
        for dim, idx in ((1, [[0, 1], [3, 3], [2, 0]]), (0, [[2, 0, 1, 1]]), (-1, [[1], [0], [2]])):
            x = Rng(len(c.cases)).tensor([3, 4], dtype)
            c.run(f"gather/{dtype}/{dim}/{idx}", "gather", lambda t, i, d=dim: torch.gather(t, d, i),
                  [x, torch.tensor(idx)], {"dim": dim})
        for shapes, dim in (([[2, 3], [1, 3]], 0), ([[2, 3], [2, 2], [2, 1]], 1), ([[2, 3], [2, 3]], -1),
                            ([[0, 3], [2, 3]], 0)):
            rng = Rng(len(c.cases))
            c.run(f"cat/{dtype}/{shapes}/{dim}", "cat", lambda *ts, d=dim: torch.cat(ts, d),
                  [rng.tensor(s, dtype) for s in shapes], {"dim": dim})
        for n, dim in ((3, 0), (2, 2), (2, -1), (2, 1)):
            rng = Rng(len(c.cases))
            c.run(f"stack/{dtype}/{n}/{dim}", "stack", lambda *ts, d=dim: torch.stack(ts, d),
                  [rng.tensor([2, 3], dtype) for _ in range(n)], {"dim": dim})
    x = torch.zeros(4, 3)
    c.error("index_select/error/range", "index_select", [x, torch.tensor([0, 4])], "CT_ERR_INDEX", {"dim": 0})
    c.error("gather/error/range", "gather", [x, torch.tensor([[0, 3]])], "CT_ERR_INDEX", {"dim": 1})
    c.error("cat/error/shape", "cat", [torch.zeros(2, 3), torch.zeros(2, 4)], "CT_ERR_SHAPE", {"dim": 0})
    c.error("stack/error/shape", "stack", [torch.zeros(2, 3), torch.zeros(3, 2)], "CT_ERR_SHAPE", {"dim": 0})


def ordering(c):
    """Reordering, masking, scatter, sorting, copies and conversions, and the mean squared error."""
    for dtype in FLOATS + ("int64",):
        diff = dtype in FLOATS
        x = Rng(len(c.cases)).tensor([2, 3, 4], dtype)
        for dims in ([0], [-1], [0, 2]):
            c.run(f"flip/{dtype}/{dims}", "flip", lambda t, d=dims: torch.flip(t, d), [x], {"dims": dims},
                  differentiable=diff)
        x = Rng(len(c.cases)).tensor([3, 4], dtype)
        for shifts, dims in (([1], [0]), ([-1, 2], [0, 1]), ([5], [1]), ([2], [-1])):
            c.run(f"roll/{dtype}/{shifts}/{dims}", "roll", lambda t, s=shifts, d=dims: torch.roll(t, s, d), [x],
                  {"shifts": shifts, "dims": dims}, differentiable=diff)
        for op, fn in (("tril", torch.tril), ("triu", torch.triu)):
            for diagonal in (-1, 0, 2):
                c.run(f"{op}/{dtype}/{diagonal}", op, lambda t, fn=fn, k=diagonal: fn(t, k), [x],
                      {"diagonal": diagonal}, differentiable=diff)
        for op, fn in (("clone", torch.clone), ("contiguous", lambda t: t.contiguous())):
            c.run(f"{op}/{dtype}", op, fn, [x], differentiable=diff)
        c.run(f"detach/{dtype}", "detach", torch.detach, [x], differentiable=False)
        for shape in ([1, 3, 1, 2], [1], [2, 3]):
            c.run(f"squeeze_all/{dtype}/{shape}", "squeeze_all", torch.squeeze,
                  [Rng(len(c.cases)).tensor(shape, dtype)], differentiable=diff)
        rng = Rng(len(c.cases))
        for mshape in ([3, 4], [4]):
            mask = rng.tensor(mshape, "bool")
            c.run(f"masked_fill/{dtype}/{mshape}", "masked_fill", lambda t, m: t.masked_fill(m, 2.5), [x, mask],
                  {"value": 2.5}, differentiable=diff)
            c.run(f"masked_select/{dtype}/{mshape}", "masked_select", torch.masked_select, [x, mask],
                  differentiable=diff)
        z = torch.tensor([[0, 1, 0], [2, 0, 3]], dtype=DTYPES[dtype])
        c.run(f"nonzero/{dtype}", "nonzero", torch.nonzero, [z], differentiable=False)
        for to in ("float32", "float64", "int64"):
            if to != dtype:
                c.run(f"to_dtype/{dtype}/{to}", "to_dtype", lambda t, to=to: t.to(DTYPES[to]), [x], {"dtype": to},
                      differentiable=diff)
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        x = rng.tensor([3, 5], dtype)
        for dim in (1, 0, -1):
            for desc in (False, True):
                a = {"dim": dim, "descending": desc}
                c.run(f"sort/{dtype}/{dim}/desc{int(desc)}", "sort",
                      lambda t, d=dim, de=desc: torch.sort(t, dim=d, descending=de, stable=True), [x], a)
                c.run(f"argsort/{dtype}/{dim}/desc{int(desc)}", "argsort",
                      lambda t, d=dim, de=desc: torch.argsort(t, dim=d, descending=de), [x], a, differentiable=False)
        for k, dim, largest in ((2, 1, True), (2, 1, False), (3, 0, True), (1, -1, True)):
            c.run(f"topk/{dtype}/{k}/{dim}/largest{int(largest)}", "topk",
                  lambda t, k=k, d=dim, l=largest: torch.topk(t, k, d, l, True), [x],
                  {"k": k, "dim": dim, "largest": largest})
        for k, dim, keepdim in ((2, 1, True), (2, 1, False), (3, 0, False), (1, -1, True)):
            c.run(f"kthvalue/{dtype}/{k}/{dim}/keepdim{int(keepdim)}", "kthvalue",
                  lambda t, k=k, d=dim, kd=keepdim: torch.kthvalue(t, k, d, kd), [x],
                  {"k": k, "dim": dim, "keepdim": keepdim})
        y = rng.tensor([3, 5], dtype)
        for reduction in ("none", "mean", "sum"):
            c.run(f"mse_loss/{dtype}/{reduction}", "mse_loss",
                  lambda a, b, r=reduction: torch.nn.functional.mse_loss(a, b, reduction=r), [x, y],
                  {"reduction": reduction})
        x = rng.tensor([3, 4], dtype)
        for dim, idx in ((1, [[0, 1], [3, 2], [2, 0]]), (0, [[2, 0, 1, 1]]), (-1, [[1], [0], [2]])):
            src = rng.tensor([len(idx), len(idx[0])], dtype)
            index = torch.tensor(idx)
            c.run(f"scatter/{dtype}/{dim}/{idx}", "scatter", lambda t, i, s, d=dim: torch.scatter(t, d, i, s),
                  [x, index, src], {"dim": dim})
        for dim, idx in ((1, [[0, 0], [3, 3], [2, 0]]), (0, [[2, 0, 2, 2], [2, 1, 0, 2]])):
            src = rng.tensor([len(idx), len(idx[0])], dtype)
            c.run(f"scatter_add/{dtype}/{dim}/{idx}", "scatter_add",
                  lambda t, i, s, d=dim: torch.scatter_add(t, d, i, s), [x, torch.tensor(idx), src], {"dim": dim})
    x = torch.zeros(3, 4)
    c.error("flip/error/dim", "flip", [x], "CT_ERR_INDEX", {"dims": [2]})
    c.error("roll/error/dim", "roll", [x], "CT_ERR_INDEX", {"shifts": [1], "dims": [3]})
    c.error("sort/error/dim", "sort", [x], "CT_ERR_INDEX", {"dim": 2, "descending": False})
    c.error("topk/error/k", "topk", [x], "CT_ERR_INDEX", {"k": 5, "dim": 1, "largest": True})
    c.error("kthvalue/error/k", "kthvalue", [x], "CT_ERR_INDEX", {"k": 0, "dim": 1, "keepdim": False})
    c.error("mse_loss/error/shape", "mse_loss", [x, torch.zeros(4, 3)], "CT_ERR_SHAPE", {"reduction": "mean"})
    c.error("scatter/error/range", "scatter", [x, torch.tensor([[4]]), torch.zeros(1, 1)], "CT_ERR_INDEX", {"dim": 1})
    c.error("masked_fill/error/mask", "masked_fill", [x, torch.tensor([True, False])], "CT_ERR_SHAPE", {"value": 1.0})


def nn_ops(c):
    """Convolution, pooling, losses, embedding, einsum, split/chunk and unique."""
    F = torch.nn.functional
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        x = rng.tensor([2, 2, 5, 5], dtype)
        for wshape, stride, padding, dilation, groups, bias in (
                ([3, 2, 3, 3], [1, 1], [0, 0], [1, 1], 1, True), ([4, 2, 2, 3], [2, 1], [1, 0], [1, 1], 1, False),
                ([2, 1, 3, 3], [1, 2], [1, 1], [2, 1], 2, True)):
            w = rng.tensor(wshape, dtype)
            xs = [x, w] + ([rng.tensor([wshape[0]], dtype)] if bias else [])
            # computed in float64 and rounded: torch's float32 conv (oneDNN) can differ in the last bit from run to
            # run (its kernels depend on memory alignment), and the committed cases must be reproducible
            def conv(*t, s=stride, p=padding, d=dilation, g=groups):
                t64 = [v.double() for v in t]
                return F.conv2d(t64[0], t64[1], t64[2] if len(t64) > 2 else None, s, p, d, g).to(t[0].dtype)
            c.run(f"conv2d/{dtype}/{wshape}/s{stride}/p{padding}/d{dilation}/g{groups}", "conv2d", conv,
                  xs, {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups})
        for kernel, stride, padding in (([2, 2], [2, 2], [0, 0]), ([3, 2], [1, 2], [1, 1])):
            a = {"kernel": kernel, "stride": stride, "padding": padding}
            c.run(f"max_pool2d/{dtype}/{kernel}/{stride}/{padding}", "max_pool2d",
                  lambda t, a=a: F.max_pool2d(t, a["kernel"], a["stride"], a["padding"]), [x], a)
            c.run(f"avg_pool2d/{dtype}/{kernel}/{stride}/{padding}", "avg_pool2d",
                  lambda t, a=a: F.avg_pool2d(t, a["kernel"], a["stride"], a["padding"]), [x], a)
        for dilation, ceil_mode in (([1, 1], True), ([2, 1], False)):
            a = {"kernel": [2, 2], "stride": [2, 2], "padding": [1, 0], "dilation": dilation, "ceil_mode": ceil_mode}
            c.run(f"max_pool2d_ex/{dtype}/d{dilation}/ceil{int(ceil_mode)}", "max_pool2d_ex",
                  lambda t, a=a: F.max_pool2d(t, a["kernel"], a["stride"], a["padding"], a["dilation"],
                                              a["ceil_mode"], return_indices=True), [x], a)
        for ceil_mode, include, divisor in ((True, True, 0), (False, False, 0), (False, True, 3)):
            a = {"kernel": [3, 3], "stride": [2, 2], "padding": [1, 1], "ceil_mode": ceil_mode,
                 "count_include_pad": include, "divisor_override": divisor}
            c.run(f"avg_pool2d_ex/{dtype}/ceil{int(ceil_mode)}/inc{int(include)}/div{divisor}", "avg_pool2d_ex",
                  lambda t, a=a: F.avg_pool2d(t, a["kernel"], a["stride"], a["padding"], a["ceil_mode"],
                                              a["count_include_pad"], a["divisor_override"] or None), [x], a)
        for out in ([2, 2], [3, 1], [5, 5]):
            c.run(f"adaptive_avg_pool2d/{dtype}/{out}", "adaptive_avg_pool2d",
                  lambda t, o=out: F.adaptive_avg_pool2d(t, o), [x], {"output_size": out})
            c.run(f"adaptive_max_pool2d/{dtype}/{out}", "adaptive_max_pool2d",
                  lambda t, o=out: F.adaptive_max_pool2d(t, o, return_indices=True), [x], {"output_size": out})
        logits = rng.tensor([4, 3], dtype, -2.0, 2.0)
        target = torch.tensor([2, 0, 1, 2])
        weight = rng.tensor([3], dtype, 0.5, 2.0)
        for reduction in ("none", "mean", "sum"):
            for ignore in (-100, 2):
                a = {"reduction": reduction, "ignore_index": ignore}
                c.run(f"cross_entropy/{dtype}/{reduction}/ignore{ignore}", "cross_entropy",
                      lambda t, y, a=a: F.cross_entropy(t, y, reduction=a["reduction"], ignore_index=a["ignore_index"]),
                      [logits, target], a)
                c.run(f"nll_loss/{dtype}/{reduction}/ignore{ignore}", "nll_loss",
                      lambda t, y, a=a: F.nll_loss(t, y, reduction=a["reduction"], ignore_index=a["ignore_index"]),
                      [torch.log_softmax(logits, 1), target], a)
            for smoothing in (0.0, 0.2):
                a = {"reduction": reduction, "ignore_index": 1, "label_smoothing": smoothing}
                c.run(f"cross_entropy_ex/{dtype}/{reduction}/ls{smoothing}", "cross_entropy_ex",
                      lambda t, y, w, a=a: F.cross_entropy(t, y, w, reduction=a["reduction"],
                                                           ignore_index=a["ignore_index"],
                                                           label_smoothing=a["label_smoothing"]),
                      [logits, target, weight], a, grad_inputs={0})
            a = {"reduction": reduction, "ignore_index": -100}
            c.run(f"nll_loss_ex/{dtype}/{reduction}", "nll_loss_ex",
                  lambda t, y, w, a=a: F.nll_loss(t, y, w, reduction=a["reduction"], ignore_index=a["ignore_index"]),
                  [torch.log_softmax(logits, 1), target, weight], a, grad_inputs={0})
            probs, goal = rng.tensor([2, 3], dtype, 0.05, 0.95), rng.tensor([2, 3], dtype, 0.0, 1.0)
            c.run(f"binary_cross_entropy/{dtype}/{reduction}", "binary_cross_entropy",
                  lambda t, y, r=reduction: F.binary_cross_entropy(t, y, reduction=r), [probs, goal],
                  {"reduction": reduction})
            z = rng.tensor([2, 3], dtype, -30.0, 30.0)
            c.run(f"binary_cross_entropy_with_logits/{dtype}/{reduction}", "binary_cross_entropy_with_logits",
                  lambda t, y, r=reduction: F.binary_cross_entropy_with_logits(t, y, reduction=r), [z, goal],
                  {"reduction": reduction})
        table = rng.tensor([5, 3], dtype)
        for idx in ([[0, 4], [2, 2]], [3], []):
            c.run(f"embedding/{dtype}/{idx}", "embedding", lambda w, i: F.embedding(i, w),
                  [table, torch.tensor(idx, dtype=torch.int64)])
        for eq, shapes in (("ij,jk->ik", [[2, 3], [3, 4]]), ("bij,bjk->bik", [[2, 2, 3], [2, 3, 2]]),
                           ("ii->i", [[3, 3]]), ("ij->", [[2, 3]]), ("i,j->ij", [[2], [3]]), ("ij->ji", [[2, 3]])):
            c.run(f"einsum/{dtype}/{eq}", "einsum", lambda *t, eq=eq: torch.einsum(eq, *t),
                  [rng.tensor(sh, dtype) for sh in shapes], {"equation": eq})
        y = rng.tensor([5, 4], dtype)
        for op, fn, n in (("split", torch.split, 2), ("chunk", torch.chunk, 3)):
            for dim in (0, -1):
                key = "split_size" if op == "split" else "chunks"
                c.run(f"{op}/{dtype}/{n}/{dim}", op, lambda t, fn=fn, n=n, d=dim: fn(t, n, d), [y], {key: n, "dim": dim})
    for dtype in ("float32", "int64"):
        u = torch.tensor([3, 1, 3, 0, 1, 3], dtype=DTYPES[dtype])
        c.run(f"unique/{dtype}", "unique", lambda t: torch.unique(t, sorted=True, return_inverse=True,
                                                                     return_counts=True), [u], {"sorted": True},
              differentiable=False)
    x = torch.zeros(2, 2, 5, 5)
    c.error("conv2d/error/channels", "conv2d", [x, torch.zeros(3, 3, 3, 3)], "CT_ERR_SHAPE",
            {"stride": [1, 1], "padding": [0, 0], "dilation": [1, 1], "groups": 1})
    c.error("max_pool2d/error/kernel", "max_pool2d", [x], "CT_ERR_INVALID_ARGUMENT",
            {"kernel": [0, 2], "stride": [1, 1], "padding": [0, 0]})
    c.error("cross_entropy/error/class", "cross_entropy", [torch.zeros(2, 3), torch.tensor([0, 3])], "CT_ERR_INDEX",
            {"reduction": "mean", "ignore_index": -100})
    c.error("embedding/error/index", "embedding", [torch.zeros(5, 3), torch.tensor([5])], "CT_ERR_INDEX")
    c.error("split/error/size", "split", [torch.zeros(4)], "CT_ERR_INVALID_ARGUMENT", {"split_size": 0, "dim": 0})


def creation(c):
    """Tensors from shapes, values and ranges; *_like; host data; wrapped scalars; moves to the CPU."""
    for dtype in ("float32", "float64", "int64", "bool"):
        for shape in ([2, 3], [0, 2], []):
            for op, fn in (("zeros", torch.zeros), ("ones", torch.ones)):
                c.run(f"{op}/{dtype}/{shape}", op, lambda fn=fn, s=shape, d=dtype: fn(s, dtype=DTYPES[d]), [],
                      {"shape": shape, "dtype": dtype})
        c.run(f"full/{dtype}", "full", lambda d=dtype: torch.full([2, 2], 1.0 if d == "bool" else 3.0, dtype=DTYPES[d]),
              [], {"shape": [2, 2], "value": 1.0 if dtype == "bool" else 3.0, "dtype": dtype})
        c.run(f"scalar_tensor/{dtype}", "scalar_tensor", lambda d=dtype: torch.scalar_tensor(1, dtype=DTYPES[d]), [],
              {"value": 1.0, "dtype": dtype})
        c.run(f"eye/{dtype}", "eye", lambda d=dtype: torch.eye(2, 3, dtype=DTYPES[d]), [], {"n": 2, "m": 3, "dtype": dtype})
    for dtype in ("float32", "float64", "int64"):
        for start, end, step in ((0, 5, 1), (1, 10, 3), (5, 0, -2), (0, 0, 1)):
            c.run(f"arange/{dtype}/{start}_{end}_{step}", "arange",
                  lambda a=start, b=end, s=step, d=dtype: torch.arange(a, b, s, dtype=DTYPES[d]), [],
                  {"start": float(start), "end": float(end), "step": float(step), "dtype": dtype})
        x = Rng(len(c.cases)).tensor([2, 3], dtype)
        for op, fn in (("zeros_like", torch.zeros_like), ("ones_like", torch.ones_like)):
            c.run(f"{op}/{dtype}", op, fn, [x], differentiable=False)
        c.run(f"full_like/{dtype}", "full_like", lambda t: torch.full_like(t, 7), [x], {"value": 7.0},
              differentiable=False)
        c.run(f"to_device/{dtype}/cpu", "to_device", lambda t: t.to("cpu"), [x], {"device": "cpu"})
    for dtype in FLOATS:
        for start, end, steps in ((0.0, 1.0, 5), (2.0, -2.0, 3), (1.0, 1.0, 1), (0.0, 1.0, 0)):
            c.run(f"linspace/{dtype}/{start}_{end}_{steps}", "linspace",
                  lambda a=start, b=end, n=steps, d=dtype: torch.linspace(a, b, n, dtype=DTYPES[d]), [],
                  {"start": start, "end": end, "steps": steps, "dtype": dtype})
    # host data in through each language's usual constructor: every dtype with its edge values
    edges = {"float32": [0.0, -0.0, 1.5, -3.25e38, float("inf"), float("-inf"), float("nan"), 1e-45],
             "float64": [0.0, -1e308, 5e-324, float("nan"), float("inf"), 0.1, -2.5, 1e300],
             "int32": [-2**31, 2**31 - 1, 0, -1, 7, 100, -100, 1],
             "int64": [-2**63, 2**63 - 1, 0, -1, 2**53 + 1, -(2**53) - 1, 42, 3],
             "uint8": [0, 255, 1, 128, 127, 2, 254, 3], "bool": [True, False, True, True, False, False, True, False]}
    for dtype, vals in edges.items():
        t = torch.tensor(vals, dtype=DTYPES[dtype])
        for shape in ([8], [2, 4], [2, 2, 2]):
            c.run(f"tensor_from_data/{dtype}/{shape}", "tensor_from_data", lambda t: t.clone(), [t.reshape(shape)],
                  differentiable=False)
    # a language scalar in an op: it takes part by category only (float32 * 2.5 stays float32, int64 * 2 stays int64)
    for dtype in ("float32", "int64"):
        x = Rng(len(c.cases)).tensor([2, 2], dtype)
        for v in (2.5, 2):
            c.run(f"wrapped_scalar/{dtype}/{v}", "wrapped_scalar", lambda t, v=v: t * v, [x, v],
                  {"is_integer": isinstance(v, int)}, differentiable=False)
    bool_scalar_cases(c)
    c.error("zeros/error/shape", "zeros", [], "CT_ERR_INVALID_ARGUMENT", {"shape": [2, -1], "dtype": "float32"})
    c.error("arange/error/step", "arange", [], "CT_ERR_INVALID_ARGUMENT",
            {"start": 0.0, "end": 5.0, "step": 0.0, "dtype": "float32"})
    c.error("linspace/error/steps", "linspace", [], "CT_ERR_INVALID_ARGUMENT",
            {"start": 0.0, "end": 1.0, "steps": -1, "dtype": "float32"})


def bool_scalar_cases(c):
    """Issue 15: a language's bool beside a tensor (`bool_scalar`, ct_wrapped_scalar_bool) promotes as torch 1.13's
    Python bool: it never changes the tensor's dtype (bool + True stays bool), division gives the default float, and
    subtraction (t - True), bool // True, bool ** True and bitwise ops on floating tensors are refused."""
    rng = Rng(1516)
    for dtype in ("bool", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64"):
        x = rng.tensor([2, 3], dtype, -3.0, 3.0)
        c.run(f"wrapped_scalar_bool/{dtype}", "wrapped_scalar_bool", lambda t, b: t * b, [x, True], differentiable=False)
        c.run(f"add/{dtype}/bool_scalar", "add", torch.add, [x, True])
        c.run(f"mul/bool_scalar/{dtype}/0-d", "mul", torch.mul, [False, x[0, 0].clone()])
        c.run(f"div/{dtype}/bool_scalar", "div", torch.div, [x, True])
        c.run(f"eq/{dtype}/bool_scalar", "eq", torch.eq, [x, True], differentiable=False)
        c.run(f"where/{dtype}/bool_scalar", "where", torch.where, [torch.tensor([True, False, True]), x, True],
              differentiable=False)
        c.error(f"sub/{dtype}/bool_scalar", "sub", [x, True], "CT_ERR_DTYPE")
        if dtype in ("float16", "float32", "float64", "complex64"):
            c.error(f"bitwise_and/{dtype}/bool_scalar", "bitwise_and", [x, True], "CT_ERR_DTYPE")
        else:
            for op in ("bitwise_and", "bitwise_or", "bitwise_xor"):
                c.run(f"{op}/{dtype}/bool_scalar", op, getattr(torch, op), [x, True], differentiable=False)
        if dtype != "complex64":
            c.run(f"maximum/{dtype}/bool_scalar", "maximum", lambda a, b: torch.maximum(a, torch.tensor(b)), [x, True],
                  differentiable=False)
    x = torch.tensor([True, False])
    c.error("floor_divide/bool/bool_scalar", "floor_divide", [x, True], "CT_ERR_DTYPE")
    c.error("pow/bool/bool_scalar", "pow", [x, True], "CT_ERR_DTYPE")


def random_ops(c):
    """Random and uninitialised tensors. Their values are not PyTorch's (each library has its own generator), so a
    case gives each output's dtype and shape and the properties its values must have (README, "Properties"): checked
    bounds, permutations, 0-or-scaled elements, and sample means and standard deviations within bounds of at least
    5 standard errors. The runner seeds ctensor's default generator with args.seed first, so every run draws the
    same values and a case cannot fail by chance. Where the values are fixed (p of 0 or 1, a one-value range, eval
    mode) the case gives them, with gradients, computed by torch."""
    def prop(cid, op, inputs, args, outputs, note=None):
        case = {"id": cid, "op": op, "inputs": [tensor_json(x) for x in inputs], "args": args,
                "expect": {"outputs": outputs}}
        if note:
            case["note"] = note
        c.add(case)

    def out(dtype, shape, **properties):
        return {"dtype": dtype, "shape": shape, "properties": properties}

    seed = 20261125
    for dtype in FLOATS:
        for shape in ([100, 100], [7], [], [2, 0]):
            n = math.prod(shape)
            moments = {"mean": [0.5, 0.02], "std": [math.sqrt(1 / 12), 0.01]} if n >= 10000 else {}
            prop(f"rand/{dtype}/{shape}", "rand", [], {"shape": shape, "dtype": dtype, "seed": seed},
                 [out(dtype, shape, range=[0.0, 1.0], **moments)])
            moments = {"mean": [0.0, 0.05], "std": [1.0, 0.04]} if n >= 10000 else {}
            prop(f"randn/{dtype}/{shape}", "randn", [], {"shape": shape, "dtype": dtype, "seed": seed},
                 [out(dtype, shape, **moments)])
        c.error(f"rand/error/shape/{dtype}", "rand", [], "CT_ERR_INVALID_ARGUMENT", {"shape": [2, -1], "dtype": dtype})
        c.error(f"randn/error/shape/{dtype}", "randn", [], "CT_ERR_INVALID_ARGUMENT", {"shape": [-3], "dtype": dtype})
    for dtype in ("int64", "int32", "uint8", "bool"):
        c.error(f"rand/error/dtype/{dtype}", "rand", [], "CT_ERR_DTYPE", {"shape": [2], "dtype": dtype})
        c.error(f"randn/error/dtype/{dtype}", "randn", [], "CT_ERR_DTYPE", {"shape": [2], "dtype": dtype})

    for dtype, low, high in (("int64", -5, 7), ("int64", -2**40, 2**40), ("int32", -2**31, 2**31 - 1),
                             ("uint8", 0, 256), ("bool", 0, 2), ("float32", 0, 10), ("float64", -3, 3)):
        k = high - low  # a uniform draw from k consecutive integers: mean (low + high - 1) / 2, std sqrt((k^2 - 1) / 12)
        std = math.sqrt((k * k - 1) / 12)
        prop(f"randint/{dtype}/{low}_{high}", "randint", [],
             {"low": low, "high": high, "shape": [100, 100], "dtype": dtype, "seed": seed},
             [out(dtype, [100, 100], range=[float(low), float(high)], integral=True,
                  mean=[(low + high - 1) / 2, 0.05 * std], std=[std, 0.03 * std])])
    c.run("randint/int64/one_value", "randint", lambda: torch.randint(3, 4, (2, 3)), [],
          {"low": 3, "high": 4, "shape": [2, 3], "dtype": "int64", "seed": seed})
    c.run("randint/int64/empty", "randint", lambda: torch.randint(0, 4, (0, 3)), [],
          {"low": 0, "high": 4, "shape": [0, 3], "dtype": "int64", "seed": seed})
    for low, high, dtype in ((3, 3, "int64"), (5, 3, "int64"), (0, 300, "uint8"), (-1, 2, "uint8")):
        c.error(f"randint/error/{dtype}/{low}_{high}", "randint", [], "CT_ERR_INVALID_ARGUMENT",
                {"low": low, "high": high, "shape": [2], "dtype": dtype})
    c.error("randint/error/shape", "randint", [], "CT_ERR_INVALID_ARGUMENT",
            {"low": 0, "high": 3, "shape": [-1], "dtype": "int64"})

    for n in (0, 1, 2, 10, 1000):
        prop(f"randperm/{n}", "randperm", [], {"n": n, "seed": seed}, [out("int64", [n], permutation=True)])
    c.error("randperm/error/negative", "randperm", [], "CT_ERR_INVALID_ARGUMENT", {"n": -1})

    for dtype in FLOATS:
        for p in (0.3, 0.9):
            probs = torch.full([50, 40], p, dtype=DTYPES[dtype])
            se = math.sqrt(p * (1 - p) / probs.numel())
            prop(f"bernoulli/{dtype}/{p}", "bernoulli", [probs], {"seed": seed},
                 [out(dtype, [50, 40], zero_or=[1.0] * probs.numel(), mean=[p, 6 * se])])
        fixed = torch.tensor([[0.0, 1.0, 1.0], [0.0, 0.0, 1.0]], dtype=DTYPES[dtype])
        c.run(f"bernoulli/{dtype}/zero_or_one", "bernoulli", torch.bernoulli, [fixed], {"seed": seed},
              differentiable=False)
        for bad in (1.5, -0.25, float("nan")):
            c.error(f"bernoulli/error/{dtype}/{bad}", "bernoulli", [torch.tensor([0.5, bad], dtype=DTYPES[dtype])],
                    "CT_ERR_INVALID_ARGUMENT")
    c.error("bernoulli/error/dtype", "bernoulli", [torch.tensor([1, 0])], "CT_ERR_DTYPE")

    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        x = 1.0 + 0.5 * rng.tensor([40, 50], dtype, 0.0, 1.0)  # positive, so the mean tells a dropped from a kept
        for p in (0.3, 0.5):
            kept = x / (1 - p)
            se = math.sqrt(float((x.double() ** 2).mean()) * p / (1 - p) / x.numel())
            prop(f"dropout/{dtype}/{p}", "dropout", [x], {"p": p, "training": True, "seed": seed},
                 [out(dtype, [40, 50], zero_or=[encode(v) for v in kept.reshape(-1).tolist()],
                      mean=[float(x.double().mean()), 6 * se])])
        small = rng.tensor([2, 3], dtype)
        for p, training in ((0.0, True), (0.5, False), (1.0, True), (1.0, False)):
            c.run(f"dropout/{dtype}/p{p}/{'train' if training else 'eval'}", "dropout",
                  lambda t, p=p, tr=training: torch.nn.functional.dropout(t, p, tr), [small],
                  {"p": p, "training": training, "seed": seed})
        for bad in (1.5, -0.1):
            c.error(f"dropout/error/{dtype}/{bad}", "dropout", [small], "CT_ERR_INVALID_ARGUMENT",
                    {"p": bad, "training": True})
    c.error("dropout/error/dtype", "dropout", [torch.tensor([1, 2])], "CT_ERR_DTYPE", {"p": 0.5, "training": True})

    for dtype in DTYPES:
        for shape in ([2, 3], [0], []):
            prop(f"empty/{dtype}/{shape}", "empty", [], {"shape": shape, "dtype": dtype}, [out(dtype, shape)],
                 note="uninitialised memory: only the dtype and shape are defined")
            x = Rng(len(c.cases)).tensor(shape, dtype)
            prop(f"empty_like/{dtype}/{shape}", "empty_like", [x], {}, [out(dtype, shape)],
                 note="uninitialised memory: only the dtype and shape are defined")
    c.error("empty/error/shape", "empty", [], "CT_ERR_INVALID_ARGUMENT", {"shape": [2, -3], "dtype": "float32"})
    # host memory wrapped without a copy, through each language's zero-copy constructor
    for dtype in DTYPES:
        x = Rng(len(c.cases)).tensor([2, 4], dtype, -1e3, 1e3)
        for shape in ([8], [2, 4], [2, 2, 2], [0]):
            t = x.reshape(-1)[:math.prod(shape)].reshape(shape)
            c.run(f"tensor_from_blob/{dtype}/{shape}", "tensor_from_blob", lambda t: t.clone(), [t],
                  differentiable=False)


HARDSIGMOID_NOTE = ("torch 1.13's float64 hardsigmoid backward multiplies by the float32 constant 1/6 (relative "
                    "error 3e-8); the expected values use 1/6 in float64 (generate.py checks them against "
                    "F.hardsigmoid to 1e-7), as ctensor computes")


def hardsigmoid_exact(t, a):
    """F.hardsigmoid with its gradient in t's own precision (HARDSIGMOID_NOTE); the same branches at -3 and 3."""
    y = torch.where(t <= -3, torch.zeros_like(t), torch.where(t >= 3, torch.ones_like(t), t / 6 + 0.5))
    ref = torch.nn.functional.hardsigmoid(t.detach())
    assert torch.allclose(y.detach(), ref, rtol=1e-7, atol=1e-7, equal_nan=True)
    return y


HARDSWISH_NOTE = ("torch 1.13's CPU hardswish backward gives 1.5 at x = 3 in its scalar loop (x <= 3, the documented "
                  "formula) but 1 in its vectorised loop (x < 3), so the gradient at 3 depends on the element's "
                  "position; ctensor follows the formula, and the expected values use it (checked against "
                  "F.hardswish's values)")
NOTES = {"hardsigmoid": HARDSIGMOID_NOTE, "hardswish": HARDSWISH_NOTE}


def hardswish_exact(t, a):
    """F.hardswish with the documented gradient at -3 (-1/2) and 3 (3/2) in every position (HARDSWISH_NOTE)."""
    y = torch.where(t < -3, t * 0, torch.where(t <= 3, t * (t + 3) / 6, t))
    assert torch.allclose(y.detach(), torch.nn.functional.hardswish(t.detach()), rtol=1e-6, atol=1e-7, equal_nan=True)
    return y


def activations(c):
    """torch.nn.functional's further activations: values and gradients at random points and exactly at the kinks
    (where torch's choice of branch decides the gradient), NaN and infinities, parameters, and bad arguments."""
    F = torch.nn.functional
    kinks = [-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0, -30.0, 30.0, 100.0, -100.0]
    special = [float("nan"), float("inf"), float("-inf"), 0.0]
    simple = {
        # ELU, and SELU and CELU as its parameterisations (the bindings' selu/celu call ct_elu so)
        "elu": (lambda t, a: F.celu(t, a["alpha"]) if a["input_scale"] != 1 else
                F.elu(t, a["alpha"]) if a["scale"] == 1 else torch.selu(t),
                [{"alpha": 1.0, "scale": 1.0, "input_scale": 1.0}, {"alpha": 0.5, "scale": 1.0, "input_scale": 1.0},
                 {"alpha": 1.6732632423543772, "scale": 1.0507009873554805, "input_scale": 1.0},
                 {"alpha": 2.0, "scale": 1.0, "input_scale": 0.5}]),
        "leaky_relu": (lambda t, a: F.leaky_relu(t, a["negative_slope"]), [{"negative_slope": 0.01}, {"negative_slope": -0.2}]),
        "hardtanh": (lambda t, a: F.hardtanh(t, a["min_val"], a["max_val"]),
                     [{"min_val": -1.0, "max_val": 1.0}, {"min_val": 0.0, "max_val": 6.0}, {"min_val": 2.0, "max_val": 1.0}]),
        "hardsigmoid": (hardsigmoid_exact, [{}]),
        "hardswish": (hardswish_exact, [{}]),
        "softshrink": (lambda t, a: F.softshrink(t, a["lambd"]), [{"lambd": 0.5}, {"lambd": 0.0}]),
        "hardshrink": (lambda t, a: F.hardshrink(t, a["lambd"]), [{"lambd": 0.5}, {"lambd": 0.0}]),
        "threshold": (lambda t, a: F.threshold(t, a["threshold"], a["value"]),
                      [{"threshold": 0.5, "value": -2.0}, {"threshold": -1.0, "value": 0.0}]),
        "mish": (lambda t, a: F.mish(t), [{}]),
        "log_sigmoid": (lambda t, a: F.logsigmoid(t), [{}]),
        "softsign": (lambda t, a: F.softsign(t), [{}]),
        "tanhshrink": (lambda t, a: F.tanhshrink(t), [{}]),
    }
    for op, (fn, arg_sets) in simple.items():
        for dtype in FLOATS:
            for k, a in enumerate(arg_sets):
                rng = Rng(len(c.cases))
                for name, x in (("random", rng.tensor([3, 4], dtype, -4.0, 4.0)),
                                ("kinks", torch.tensor(kinks, dtype=DTYPES[dtype]).reshape(2, 6))):
                    c.run(f"{op}/{dtype}/{k}/{name}", op, lambda t, fn=fn, a=a: fn(t, a), [x], a,
                          note=NOTES.get(op))
            c.run(f"{op}/{dtype}/special", op, lambda t, fn=fn, a=arg_sets[0]: fn(t, a),
                  [torch.tensor(special, dtype=DTYPES[dtype])], arg_sets[0], differentiable=False)
            c.run(f"{op}/{dtype}/empty", op, lambda t, fn=fn, a=arg_sets[0]: fn(t, a),
                  [torch.zeros([0, 3], dtype=DTYPES[dtype])], arg_sets[0])
        if op != "threshold":
            c.error(f"{op}/error/dtype", op, [torch.tensor([1, -2])], "CT_ERR_DTYPE", arg_sets[0])
    for dtype in ("int64", "int32"):
        c.run(f"threshold/{dtype}", "threshold", lambda t: F.threshold(t, 1, 7), [torch.tensor([[0, 1, 2], [-5, 3, 1]],
              dtype=DTYPES[dtype])], {"threshold": 1.0, "value": 7.0}, differentiable=False)
    c.error("softshrink/error/lambd", "softshrink", [torch.zeros(2)], "CT_ERR_INVALID_ARGUMENT", {"lambd": -1.0})
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        x = rng.tensor([2, 3, 4], dtype)
        for dim in (0, 1, -1, 2):
            c.run(f"softmin/{dtype}/dim{dim}", "softmin", lambda t, d=dim: F.softmin(t, d), [x], {"dim": dim})
        for dim in (0, 2, -1):
            c.run(f"glu/{dtype}/dim{dim}", "glu", lambda t, d=dim: F.glu(t, d), [x], {"dim": dim})
        for shape, wshape in (([2, 3, 4], [3]), ([2, 3, 4], [1]), ([2, 3], [3]), ([5], [1]), ([], [1]), ([2, 3, 2, 2], [3])):
            xs = rng.tensor(shape, dtype)
            w = rng.tensor(wshape, dtype, 0.0, 0.5)
            c.run(f"prelu/{dtype}/{shape}/{wshape}", "prelu", F.prelu, [xs, w])
        c.run(f"rrelu/{dtype}/eval", "rrelu", lambda t: F.rrelu(t, 0.1, 0.3, False), [x],
              {"lower": 0.1, "upper": 0.3, "training": False, "seed": 20261125})
        c.run(f"rrelu/{dtype}/fixed_slope", "rrelu", lambda t: F.rrelu(t, 0.25, 0.25, True), [x],
              {"lower": 0.25, "upper": 0.25, "training": True, "seed": 20261125})
        c.run(f"rrelu/{dtype}/positive", "rrelu", lambda t: F.rrelu(t, 0.1, 0.3, True), [x.abs() + 0.5],
              {"lower": 0.1, "upper": 0.3, "training": True, "seed": 20261125})
    c.error("softmin/error/dim", "softmin", [torch.zeros(2, 3)], "CT_ERR_INDEX", {"dim": 2})
    c.error("glu/error/odd", "glu", [torch.zeros(2, 3)], "CT_ERR_SHAPE", {"dim": 1})
    c.error("glu/error/0d", "glu", [torch.tensor(1.0)], "CT_ERR_SHAPE", {"dim": 0})
    c.error("glu/error/dim", "glu", [torch.zeros(2, 4)], "CT_ERR_INDEX", {"dim": 2})
    c.error("prelu/error/channels", "prelu", [torch.zeros(2, 3, 4), torch.zeros(2)], "CT_ERR_SHAPE")
    c.error("prelu/error/weight_dims", "prelu", [torch.zeros(2, 3), torch.zeros(1, 3)], "CT_ERR_SHAPE")
    c.error("rrelu/error/bounds", "rrelu", [torch.zeros(2)], "CT_ERR_INVALID_ARGUMENT",
            {"lower": 0.5, "upper": 0.1, "training": True})


def losses(c):
    """The losses beyond cross entropy/nll/mse/bce (issue 14): every reduction, broadcasting, parameters, the kinks
    where torch's gradient follows a branch, and bad shapes and labels. Target gradients are compared where torch
    defines them (grad_inputs), not at a zero target of kl_div / poisson_nll(full), where torch's is NaN."""
    F = torch.nn.functional
    for dtype in FLOATS:
        rng = Rng(len(c.cases) + 14)
        x, y = rng.tensor([3, 4], dtype), rng.tensor([4], dtype)
        signs = torch.tensor([1.0, -1.0, -1.0, 1.0], dtype=DTYPES[dtype])
        signs34 = torch.where(rng.tensor([3, 4], dtype) > 0, 1.0, -1.0).to(DTYPES[dtype])
        # kinks: d = x - t at 0, +-beta/delta and beyond
        kx = torch.tensor([[0.0, 0.5, -0.5, 1.0, -1.0, 2.5]], dtype=DTYPES[dtype])
        kt = torch.zeros(1, 6, dtype=DTYPES[dtype])
        for r in ("none", "mean", "sum"):
            a = {"reduction": r}
            c.run(f"l1_loss/{dtype}/{r}/broadcast", "l1_loss", lambda i, t, r=r: F.l1_loss(i, t, reduction=r), [x, y], a)
            c.run(f"l1_loss/{dtype}/{r}/kinks", "l1_loss", lambda i, t, r=r: F.l1_loss(i, t, reduction=r), [kx, kt], a)
            for beta in (1.0, 0.5, 0.0):
                ab = {"reduction": r, "beta": beta}
                fn = lambda i, t, r=r, b=beta: F.smooth_l1_loss(i, t, reduction=r, beta=b)
                c.run(f"smooth_l1_loss/{dtype}/{r}/beta{beta}", "smooth_l1_loss", fn, [x, y], ab)
                c.run(f"smooth_l1_loss/{dtype}/{r}/beta{beta}/kinks", "smooth_l1_loss", fn, [kx, kt], ab)
            for delta in (1.0, 0.5):
                ad = {"reduction": r, "delta": delta}
                fn = lambda i, t, r=r, d=delta: F.huber_loss(i, t, reduction=r, delta=d)
                c.run(f"huber_loss/{dtype}/{r}/delta{delta}", "huber_loss", fn, [x, y], ad)
                c.run(f"huber_loss/{dtype}/{r}/delta{delta}/kinks", "huber_loss", fn, [kx, kt], ad)
            c.run(f"soft_margin_loss/{dtype}/{r}", "soft_margin_loss",
                  lambda i, t, r=r: F.soft_margin_loss(i, t, reduction=r), [x, signs], a, grad_inputs={0})
            for margin in (1.0, 0.5):
                am = {"reduction": r, "margin": margin}
                c.run(f"hinge_embedding_loss/{dtype}/{r}/m{margin}", "hinge_embedding_loss",
                      lambda i, t, r=r, m=margin: F.hinge_embedding_loss(i, t, m, reduction=r), [x, signs34], am,
                      grad_inputs={0})
            for margin in (0.0, 0.5):
                am = {"reduction": r, "margin": margin}
                x1, x2 = rng.tensor([5], dtype), rng.tensor([5], dtype)
                y5 = torch.tensor([1.0, -1.0, 1.0, -1.0, -1.0], dtype=DTYPES[dtype])
                fn = lambda i1, i2, t, r=r, m=margin: F.margin_ranking_loss(i1, i2, t, m, reduction=r)
                c.run(f"margin_ranking_loss/{dtype}/{r}/m{margin}", "margin_ranking_loss", fn, [x1, x2, y5], am)
                c.run(f"margin_ranking_loss/{dtype}/{r}/m{margin}/broadcast", "margin_ranking_loss", fn,
                      [rng.tensor([3, 1], dtype), rng.tensor([1, 4], dtype), signs34], am, grad_inputs={0, 1})
        # kl_div: log-probabilities against probabilities (a zero included) or log-probabilities
        lp = torch.log_softmax(rng.tensor([3, 4], dtype), 1)
        probs = torch.softmax(rng.tensor([3, 4], dtype), 1)
        probs0 = probs.clone()
        probs0[1, 2] = 0.0
        for r in ("none", "mean", "sum", "batchmean"):
            for log_target in (False, True):
                a = {"reduction": r, "log_target": log_target}
                fn = lambda i, t, r=r, lt=log_target: F.kl_div(i, t, reduction=r, log_target=lt)
                c.run(f"kl_div/{dtype}/{r}/log{int(log_target)}", "kl_div", fn,
                      [lp, torch.log(probs) if log_target else probs], a)
            c.run(f"kl_div/{dtype}/{r}/zero_target", "kl_div", lambda i, t, r=r: F.kl_div(i, t, reduction=r),
                  [lp, probs0], {"reduction": r, "log_target": False}, grad_inputs={0})
        # likelihoods
        counts = torch.tensor([[0.0, 0.5, 1.0, 2.0], [3.5, 1.5, 0.0, 7.0], [1.0, 4.0, 0.2, 2.5]], dtype=DTYPES[dtype])
        rates = rng.tensor([3, 4], dtype, 0.1, 3.0)
        for r in ("none", "mean", "sum"):
            for log_input in (True, False):
                for full in (False, True):
                    a = {"reduction": r, "log_input": log_input, "full": full, "eps": 1e-8}
                    c.run(f"poisson_nll_loss/{dtype}/{r}/log{int(log_input)}/full{int(full)}", "poisson_nll_loss",
                          lambda i, t, a=a: F.poisson_nll_loss(i, t, a["log_input"], a["full"], eps=a["eps"],
                                                               reduction=a["reduction"]),
                          [x if log_input else rates, counts], a, grad_inputs={0} if full else None)
            for vshape in ([3, 4], [3], [3, 1]):
                for full in (False, True):
                    a = {"reduction": r, "full": full, "eps": 1e-6}
                    var = rng.tensor(vshape, dtype, 0.05, 2.0)
                    c.run(f"gaussian_nll_loss/{dtype}/{r}/var{vshape}/full{int(full)}", "gaussian_nll_loss",
                          lambda i, t, v, a=a: F.gaussian_nll_loss(i, t, v, a["full"], a["eps"], a["reduction"]),
                          [x, rng.tensor([3, 4], dtype), var], a)
        a = {"reduction": "sum", "full": False, "eps": 1e-3}
        c.run(f"gaussian_nll_loss/{dtype}/clamped_var", "gaussian_nll_loss",
              lambda i, t, v, a=a: F.gaussian_nll_loss(i, t, v, a["full"], a["eps"], a["reduction"]),
              [x[0], y, torch.tensor([1e-5, 0.0, 0.5, 1e-3], dtype=DTYPES[dtype])], a)
        # class and feature losses
        labels = torch.tensor([[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0]], dtype=DTYPES[dtype])
        weight = rng.tensor([4], dtype, 0.5, 2.0)
        classes = torch.tensor([3, 0, 2])
        anchor, pos, neg = rng.tensor([3, 4], dtype), rng.tensor([3, 4], dtype), rng.tensor([3, 4], dtype)
        for r in ("none", "mean", "sum"):
            a = {"reduction": r}
            c.run(f"multilabel_soft_margin_loss/{dtype}/{r}", "multilabel_soft_margin_loss",
                  lambda i, t, r=r: F.multilabel_soft_margin_loss(i, t, reduction=r), [x, labels], a, grad_inputs={0})
            c.run(f"multilabel_soft_margin_loss/{dtype}/{r}/weight", "multilabel_soft_margin_loss",
                  lambda i, t, w, r=r: F.multilabel_soft_margin_loss(i, t, w, reduction=r), [x, labels, weight], a,
                  grad_inputs={0})
            c.run(f"multilabel_soft_margin_loss/{dtype}/{r}/3d", "multilabel_soft_margin_loss",
                  lambda i, t, r=r: F.multilabel_soft_margin_loss(i, t, reduction=r),
                  [rng.tensor([2, 3, 4], dtype), torch.cat([labels, labels]).reshape(2, 3, 4)], a,
                  grad_inputs={0})
            for p, margin, weighted in ((1, 1.0, False), (2, 0.5, False), (1, 0.7, True), (2, 1.0, True)):
                am = {"reduction": r, "p": p, "margin": margin}
                fn = lambda i, t, *w, am=am: F.multi_margin_loss(i, t, am["p"], am["margin"], w[0] if w else None,
                                                                 reduction=am["reduction"])
                c.run(f"multi_margin_loss/{dtype}/{r}/p{p}/m{margin}/w{int(weighted)}", "multi_margin_loss", fn,
                      [x, classes] + ([weight] if weighted else []), am, grad_inputs={0})
            am = {"reduction": r, "p": 1, "margin": 1.0}
            fn = lambda i, t, am=am: F.multi_margin_loss(i, t, 1, 1.0, reduction=am["reduction"])
            c.run(f"multi_margin_loss/{dtype}/{r}/vector_0d_target", "multi_margin_loss", fn, [x[0], torch.tensor(2)],
                  am)
            c.run(f"multi_margin_loss/{dtype}/{r}/vector_1d_target", "multi_margin_loss", fn, [x[0], torch.tensor([1])],
                  am)
            for margin in (0.0, 0.3):
                am = {"reduction": r, "margin": margin}
                fn = lambda i1, i2, t, am=am: F.cosine_embedding_loss(i1, i2, t, am["margin"], reduction=am["reduction"])
                c.run(f"cosine_embedding_loss/{dtype}/{r}/m{margin}", "cosine_embedding_loss", fn,
                      [anchor, pos, signs[:3]], am, grad_inputs={0, 1})
                c.run(f"cosine_embedding_loss/{dtype}/{r}/m{margin}/vector", "cosine_embedding_loss", fn,
                      [anchor[0], pos[0], torch.tensor(-1.0, dtype=DTYPES[dtype])], am, grad_inputs={0, 1})
            for margin, p, swap in ((1.0, 2.0, False), (0.5, 1.0, True), (2.0, 3.0, False), (1.0, 2.0, True)):
                am = {"reduction": r, "margin": margin, "p": p, "eps": 1e-6, "swap": swap}
                fn = lambda a_, p_, n_, am=am: F.triplet_margin_loss(a_, p_, n_, am["margin"], am["p"], am["eps"],
                                                                     am["swap"], reduction=am["reduction"])
                c.run(f"triplet_margin_loss/{dtype}/{r}/m{margin}/p{p}/swap{int(swap)}", "triplet_margin_loss", fn,
                      [anchor, pos, neg], am)
            am = {"reduction": r, "margin": 1.0, "p": 2.0, "eps": 1e-6, "swap": False}
            fn = lambda a_, p_, n_, am=am: F.triplet_margin_loss(a_, p_, n_, reduction=am["reduction"])
            c.run(f"triplet_margin_loss/{dtype}/{r}/broadcast", "triplet_margin_loss", fn, [anchor, pos[:1], neg], am)
            c.run(f"triplet_margin_loss/{dtype}/{r}/vector", "triplet_margin_loss", fn, [anchor[0], pos[0], neg[0]], am)
    z, r = torch.zeros, {"reduction": "mean"}
    c.error("l1_loss/error/broadcast", "l1_loss", [z(3, 4), z(3)], "CT_ERR_SHAPE", r)
    c.error("l1_loss/error/dtype", "l1_loss", [torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64)],
            "CT_ERR_DTYPE", r)
    c.error("soft_margin_loss/error/shape", "soft_margin_loss", [z(4), z(3, 4)], "CT_ERR_SHAPE", r)
    c.error("margin_ranking_loss/error/dims", "margin_ranking_loss", [z(3), z(3, 1), z(3)], "CT_ERR_SHAPE",
            {"reduction": "mean", "margin": 0.0})
    c.error("multilabel_soft_margin_loss/error/0d", "multilabel_soft_margin_loss", [torch.tensor(1.0), torch.tensor(1.0)],
            "CT_ERR_SHAPE", r, note="torch 1.13 raises IndexError (size(-1) of a 0-d tensor); ctensor a shape error")
    mm = {"reduction": "mean", "p": 1, "margin": 1.0}
    c.error("multi_margin_loss/error/label", "multi_margin_loss", [z(2, 3), torch.tensor([0, 3])], "CT_ERR_INDEX", mm,
            note="torch 1.13 raises RuntimeError('target out of range')")
    c.error("multi_margin_loss/error/negative_label", "multi_margin_loss", [z(2, 3), torch.tensor([-1, 0])],
            "CT_ERR_INDEX", mm)
    c.error("multi_margin_loss/error/target_size", "multi_margin_loss", [z(2, 3), torch.tensor([0, 1, 2])],
            "CT_ERR_SHAPE", mm)
    c.error("multi_margin_loss/error/3d", "multi_margin_loss", [z(2, 3, 4), torch.tensor([0, 1])], "CT_ERR_SHAPE", mm)
    c.error("multi_margin_loss/error/p", "multi_margin_loss", [z(2, 3), torch.tensor([0, 1])], "CT_ERR_INVALID_ARGUMENT",
            {"reduction": "mean", "p": 3, "margin": 1.0})
    c.error("multi_margin_loss/error/weight", "multi_margin_loss", [z(2, 4), torch.tensor([0, 1]), torch.ones(3)],
            "CT_ERR_SHAPE", mm, note="torch 1.13 does not check the weight's length (it reads past a short weight)")
    c.error("multi_margin_loss/error/float_target", "multi_margin_loss", [z(2, 3), torch.tensor([0.0, 1.0])],
            "CT_ERR_DTYPE", mm)
    cm = {"reduction": "mean", "margin": 0.0}
    c.error("cosine_embedding_loss/error/target", "cosine_embedding_loss", [z(3, 4), z(3, 4), z(3, 1)], "CT_ERR_SHAPE",
            cm)
    c.error("cosine_embedding_loss/error/inputs", "cosine_embedding_loss", [z(4), z(4), z(3)], "CT_ERR_SHAPE", cm)
    c.error("cosine_embedding_loss/error/broadcast", "cosine_embedding_loss", [z(3, 4), z(2, 4), z(3)], "CT_ERR_SHAPE",
            cm)
    tm = {"reduction": "mean", "margin": 1.0, "p": 2.0, "eps": 1e-6, "swap": False}
    c.error("triplet_margin_loss/error/dims", "triplet_margin_loss", [z(3, 4), z(4), z(3, 4)], "CT_ERR_SHAPE", tm)
    gm = {"reduction": "mean", "full": False, "eps": 1e-6}
    c.error("gaussian_nll_loss/error/var_size", "gaussian_nll_loss", [z(3, 4), z(3, 4), torch.ones(4)], "CT_ERR_SHAPE",
            gm, note="torch 1.13 raises ValueError('var is of incorrect size')")
    c.error("gaussian_nll_loss/error/var_negative", "gaussian_nll_loss", [z(2), z(2), torch.tensor([1.0, -1.0])],
            "CT_ERR_INVALID_ARGUMENT", gm)
    ctc_cases(c)


def ctc_cases(c):
    """ctc_loss: padded and concatenated targets, every reduction, blank other than 0, zero_infinity with an
    impossible alignment, one unbatched sample; gradients are torch's (of log_probs, its convention)."""
    F = torch.nn.functional
    padded = torch.tensor([[1, 2, 2], [3, 1, 0], [4, 0, 0]])
    concatenated = torch.tensor([1, 2, 2, 3, 1, 4])
    for dtype in FLOATS:
        rng = Rng(len(c.cases) + 15)
        lp = torch.log_softmax(rng.tensor([6, 3, 5], dtype), 2)
        for r in ("none", "mean", "sum"):
            for name, targets, lengths, blank, zi in (
                    ("padded", padded, [6, 5, 2], 0, False), ("concatenated", concatenated, [6, 5, 2], 0, False),
                    ("int32", padded.int(), [6, 4, 3], 0, False), ("zero_infinity", padded, [6, 1, 2], 0, True),
                    ("blank4", torch.tensor([[1, 2, 2], [3, 1, 0], [0, 0, 0]]), [6, 5, 2], 4, False)):
                a = {"reduction": r, "blank": blank, "zero_infinity": zi, "input_lengths": lengths,
                     "target_lengths": [3, 2, 1]}
                c.run(f"ctc_loss/{dtype}/{r}/{name}", "ctc_loss",
                      lambda x, t, a=a: F.ctc_loss(x, t, a["input_lengths"], a["target_lengths"], a["blank"],
                                                   a["reduction"], a["zero_infinity"]), [lp, targets], a)
            a = {"reduction": r, "blank": 0, "zero_infinity": False, "input_lengths": [6], "target_lengths": [3]}
            c.run(f"ctc_loss/{dtype}/{r}/unbatched", "ctc_loss",
                  lambda x, t, a=a: F.ctc_loss(x, t, [6], [3], 0, a["reduction"]), [lp[:, 0], padded[0]], a)
    lp = torch.log_softmax(torch.zeros(6, 3, 5), 2)
    a = {"reduction": "mean", "blank": 0, "zero_infinity": False, "input_lengths": [6, 5, 2], "target_lengths": [3, 2, 1]}
    c.error("ctc_loss/error/label", "ctc_loss", [lp, torch.tensor([[1, 5, 2], [3, 1, 0], [4, 0, 0]])], "CT_ERR_INDEX", a,
            note="torch 1.13 does not check labels (it reads past the classes)")
    c.error("ctc_loss/error/input_length", "ctc_loss", [lp, padded], "CT_ERR_SHAPE", dict(a, input_lengths=[7, 5, 2]))
    c.error("ctc_loss/error/lengths", "ctc_loss", [lp, padded], "CT_ERR_SHAPE",
            dict(a, input_lengths=[6, 5], target_lengths=[3, 2]))
    c.error("ctc_loss/error/targets", "ctc_loss", [lp, padded[:, :2]], "CT_ERR_SHAPE", a)
    c.error("ctc_loss/error/blank", "ctc_loss", [lp, padded], "CT_ERR_INVALID_ARGUMENT", dict(a, blank=5))
    c.error("ctc_loss/error/float_targets", "ctc_loss", [lp, padded.float()], "CT_ERR_DTYPE", a,
            note="torch 1.13 converts floating targets to int64; ctensor wants integer labels")
SIGN_FREE_NOTE = ("eigenvectors and singular vectors are unique only up to one sign per vector: those outputs are "
                  "checked by the property abs (|value| as torch's), reconstructions are in the bindings' tests")


def sign_free(c, outputs):
    """Turns the last case's outputs at the given positions into the property check abs (equal up to sign)."""
    for k in outputs:
        o = c.cases[-1]["expect"]["outputs"][k]
        c.cases[-1]["expect"]["outputs"][k] = {"dtype": o["dtype"], "shape": o["shape"],
                                               "properties": {"abs": o["values"]}}


LINALG_F32_NOTE = ("float32 expectations are torch's float64 results rounded to float32: torch's float32 LAPACK results "
                   "(lstsq's gelsy) differ in the last bits from run to run, and check_generated.py needs exact files")


class Float64Runs:
    """Cases whose float32 runs compute in float64 (in_float64), noted as such; everything else passes through."""

    def __init__(self, cases):
        self.inner = cases

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def run(self, cid, op, fn, inputs, args=None, differentiable=True, note=None, grad_inputs=None):
        f32 = "/float32/" in cid or "/complex64/" in cid
        self.inner.run(cid, op, in_float64(fn, "float32" if f32 else "float64"), inputs, args, differentiable,
                       note or (LINALG_F32_NOTE if f32 else None), grad_inputs)


def in_float64(fn, dtype):
    """fn computed in float64 (complex128) and its outputs cast back (LINALG_F32_NOTE) when dtype is float32 (the
    single-precision inputs: float32 and complex64)."""
    if dtype != "float32":
        return fn
    up = {torch.float32: torch.float64, torch.complex64: torch.complex128}
    down = {torch.float64: torch.float32, torch.complex128: torch.complex64}

    def back(o):
        if isinstance(o, tuple):
            return type(o)(*map(back, o)) if hasattr(o, "_fields") else tuple(map(back, o))
        return o.to(down[o.dtype]) if o.dtype in down else o

    return lambda *xs: back(fn(*[x.to(up[x.dtype]) if isinstance(x, torch.Tensor) and x.dtype in up else x
                                 for x in xs]))


def linalg(c):
    """torch.linalg's LAPACK-backed ops: values and gradients of well-conditioned, batched and empty inputs,
    every mode/triangle/side flag, singular and non-positive-definite matrices, and bad shapes and dtypes."""
    L = torch.linalg
    c = Float64Runs(c)

    def wc(rng, shape, dtype):  # random plus 3 on the diagonal: well conditioned
        return rng.tensor(shape, dtype) + 3 * torch.eye(shape[-1], dtype=DTYPES[dtype])

    def spd(rng, shape, dtype):
        x = rng.tensor(shape, dtype)
        return x @ x.mT + torch.eye(shape[-1], dtype=DTYPES[dtype])

    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        neg = wc(rng, [3, 3], dtype)
        neg[0] *= -1
        for name, x in (("3x3", wc(rng, [3, 3], dtype)), ("batch", wc(rng, [2, 2, 2], dtype)), ("negdet", neg),
                        ("empty", torch.zeros([0, 3, 3], dtype=DTYPES[dtype]))):
            c.run(f"linalg_inv/{dtype}/{name}", "linalg_inv", L.inv, [x])
            c.run(f"linalg_det/{dtype}/{name}", "linalg_det", L.det, [x])
            c.run(f"linalg_slogdet/{dtype}/{name}", "linalg_slogdet", L.slogdet, [x])
        sing = torch.tensor([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 0.0], [0.0, 1.0]]], dtype=DTYPES[dtype])
        c.run(f"linalg_det/{dtype}/singular", "linalg_det", L.det, [sing], differentiable=False)
        c.run(f"linalg_slogdet/{dtype}/singular", "linalg_slogdet", L.slogdet, [sing], differentiable=False)
        c.run(f"linalg_det/{dtype}/0x0", "linalg_det", L.det, [torch.zeros([2, 0, 0], dtype=DTYPES[dtype])])
        for name, a, b in (("matrix", wc(rng, [3, 3], dtype), rng.tensor([3, 2], dtype)),
                           ("vector", wc(rng, [3, 3], dtype), rng.tensor([3], dtype)),
                           ("batch_vectors", wc(rng, [2, 3, 3], dtype), rng.tensor([2, 3], dtype)),
                           ("broadcast", wc(rng, [2, 1, 3, 3], dtype), rng.tensor([4, 3, 1], dtype))):
            c.run(f"linalg_solve/{dtype}/{name}", "linalg_solve", L.solve, [a, b])
        for upper in (False, True):
            for name, shape in (("3x3", [3, 3]), ("batch", [2, 4, 4])):
                c.run(f"linalg_cholesky/{dtype}/{name}/upper{int(upper)}", "linalg_cholesky",
                      lambda t, u=upper: L.cholesky(t, upper=u), [spd(rng, shape, dtype)], {"upper": upper})
            for left in (False, True):
                for unit in (False, True):
                    a, b = wc(rng, [3, 3], dtype), rng.tensor([2, 3, 2] if left else [2, 2, 3], dtype)
                    c.run(f"linalg_solve_triangular/{dtype}/u{int(upper)}l{int(left)}d{int(unit)}",
                          "linalg_solve_triangular", lambda x, y, u=upper, l=left, d=unit:
                          L.solve_triangular(x, y, upper=u, left=l, unitriangular=d), [a, b],
                          {"upper": upper, "left": left, "unitriangular": unit})
        for shape in ([4, 3], [3, 4], [2, 3, 3]):
            x = rng.tensor(shape, dtype)
            sid = "x".join(map(str, shape))
            for mode in ("reduced", "complete", "r"):
                diff = mode == "reduced" or (mode == "complete" and shape[-2] <= shape[-1])
                c.run(f"linalg_qr/{dtype}/{sid}/{mode}", "linalg_qr", lambda t, m=mode: L.qr(t, mode=m), [x],
                      {"mode": mode}, differentiable=diff)
            for full in (False, True):
                c.run(f"linalg_svd/{dtype}/{sid}/full{int(full)}", "linalg_svd",
                      lambda t, f=full: L.svd(t, full_matrices=f), [x], {"full_matrices": full},
                      differentiable=False, note=SIGN_FREE_NOTE)
                sign_free(c, [0, 2])
            c.run(f"linalg_svdvals/{dtype}/{sid}", "linalg_svdvals", L.svdvals, [x])
        for uplo in ("L", "U"):
            for name, shape in (("3x3", [3, 3]), ("batch", [2, 4, 4])):
                x = rng.tensor(shape, dtype)  # not symmetric: only the UPLO triangle is read
                c.run(f"linalg_eigh/{dtype}/{name}/{uplo}", "linalg_eigh", lambda t, u=uplo: L.eigh(t, UPLO=u), [x],
                      {"UPLO": uplo}, note=SIGN_FREE_NOTE)
                sign_free(c, [1])
                c.run(f"linalg_eigvalsh/{dtype}/{name}/{uplo}", "linalg_eigvalsh",
                      lambda t, u=uplo: L.eigvalsh(t, UPLO=u), [x], {"UPLO": uplo})
        c.run(f"linalg_svdvals/{dtype}/empty", "linalg_svdvals", L.svdvals, [torch.zeros([0, 2, 3], dtype=DTYPES[dtype])])
        c.run(f"linalg_eigvalsh/{dtype}/empty", "linalg_eigvalsh", L.eigvalsh, [torch.zeros([2, 0, 0], dtype=DTYPES[dtype])],
              {"UPLO": "L"})
    linalg_composites(c, wc)
    singular = torch.tensor([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]])
    c.error("linalg_inv/error/singular", "linalg_inv", [singular], "CT_ERR_INVALID_ARGUMENT")
    c.error("linalg_solve/error/singular", "linalg_solve", [singular, torch.ones(2, 2)], "CT_ERR_INVALID_ARGUMENT")
    c.error("linalg_cholesky/error/not_pd", "linalg_cholesky", [torch.tensor([[1.0, 2.0], [2.0, 1.0]])],
            "CT_ERR_INVALID_ARGUMENT", {"upper": False})
    for op, args in (("linalg_inv", {}), ("linalg_det", {}), ("linalg_slogdet", {}), ("linalg_cholesky", {"upper": False}),
                     ("linalg_eigh", {"UPLO": "L"}), ("linalg_eigvalsh", {"UPLO": "L"})):
        c.error(f"{op}/error/not_square", op, [torch.zeros(2, 3)], "CT_ERR_SHAPE", args)
        c.error(f"{op}/error/1d", op, [torch.zeros(3)], "CT_ERR_SHAPE", args)
        c.error(f"{op}/error/dtype", op, [torch.tensor([[1, 0], [0, 1]])], "CT_ERR_DTYPE", args)
    c.error("linalg_svd/error/dtype", "linalg_svd", [torch.tensor([[1, 0], [0, 1]])], "CT_ERR_DTYPE",
            {"full_matrices": True})
    c.error("linalg_qr/error/1d", "linalg_qr", [torch.zeros(3)], "CT_ERR_SHAPE", {"mode": "reduced"})
    c.error("linalg_svdvals/error/dtype", "linalg_svdvals", [torch.tensor([[1, 0], [0, 1]])], "CT_ERR_DTYPE")
    c.error("linalg_solve/error/shapes", "linalg_solve", [torch.eye(2), torch.ones(3)], "CT_ERR_SHAPE")
    c.error("linalg_solve/error/dtypes", "linalg_solve", [torch.eye(2), torch.ones(2, dtype=torch.float64)],
            "CT_ERR_DTYPE")
    c.error("linalg_solve_triangular/error/shapes", "linalg_solve_triangular", [torch.eye(2), torch.ones(3, 1)],
            "CT_ERR_SHAPE", {"upper": True, "left": True, "unitriangular": False})
    linalg_eig_cases(c)


EIG_VECTORS_NOTE = ("eigenvectors are unique only up to a complex phase per vector (LAPACK geev's choice): V is checked "
                    "by dtype and shape only; A V = V diag(L) is in the bindings' tests")


def linalg_eig_cases(c):
    """linalg.eig / eigvals of real and complex input (issues 14/15): the eigenvalues (complex, in geev's order, which
    torch and ctensor share) with their gradients, which do not depend on the eigenvectors' phase; eig's V by dtype
    and shape only (EIG_VECTORS_NOTE). c is linalg()'s Float64Runs."""
    L = torch.linalg
    for dtype in FLOATS + COMPLEXES:
        rng = Rng(len(c.cases))
        rot = torch.tensor([[0.0, -2.0, 0.5], [2.0, 0.0, 0.0], [0.0, 0.0, 1.0]], dtype=ALL_DTYPES[dtype])  # +-2i, 1
        for name, x in (("3x3", rng.tensor([3, 3], dtype)), ("batch", rng.tensor([2, 3, 3], dtype)), ("pair", rot)):
            c.run(f"linalg_eigvals/{dtype}/{name}", "linalg_eigvals", L.eigvals, [x])
            c.run(f"linalg_eig/{dtype}/{name}", "linalg_eig", L.eig, [x], note=EIG_VECTORS_NOTE)
            v = c.cases[-1]["expect"]["outputs"][1]
            c.cases[-1]["expect"]["outputs"][1] = {"dtype": v["dtype"], "shape": v["shape"], "properties": {}}
        c.run(f"linalg_eigvals/{dtype}/empty", "linalg_eigvals", L.eigvals, [torch.zeros([2, 0, 0], dtype=ALL_DTYPES[dtype])])
    c.error("linalg_eig/error/not_square", "linalg_eig", [torch.zeros(2, 3)], "CT_ERR_SHAPE")
    c.error("linalg_eigvals/error/dtype", "linalg_eigvals", [torch.tensor([[1, 0], [0, 1]])], "CT_ERR_DTYPE")
    linalg_complex_cases(c)


def linalg_complex_cases(c):
    """The LAPACK-backed ops on complex64/complex128 (issue 15): values and torch 1.13's complex gradients of inv,
    det, slogdet (complex sign, real logabsdet), solve, matrix_power, cholesky, solve_triangular, qr, eigvalsh/eigh
    (real eigenvalues; eigh's V by dtype and shape, EIG_VECTORS_NOTE), svdvals (real), pinv and the nuclear norm.
    c is linalg()'s Float64Runs."""
    L = torch.linalg
    for dtype in COMPLEXES:
        rng = Rng(len(c.cases))
        eye = torch.eye(3, dtype=ALL_DTYPES[dtype])

        def wc(shape):
            return rng.tensor(shape, dtype) + 3 * eye

        def hpd(shape):
            x = rng.tensor(shape, dtype)
            return x @ x.mH + eye

        a, b = wc([2, 3, 3]), rng.tensor([2, 3, 2], dtype)
        c.run(f"linalg_inv/{dtype}/batch", "linalg_inv", L.inv, [a])
        c.run(f"linalg_det/{dtype}/batch", "linalg_det", L.det, [a])
        c.run(f"linalg_slogdet/{dtype}/batch", "linalg_slogdet", L.slogdet, [a])
        c.run(f"linalg_solve/{dtype}/matrix", "linalg_solve", L.solve, [a, b])
        c.run(f"linalg_solve/{dtype}/vector", "linalg_solve", L.solve, [wc([3, 3]), rng.tensor([3], dtype)])
        c.run(f"linalg_matrix_power/{dtype}/-2", "linalg_matrix_power", lambda t: L.matrix_power(t, -2), [a], {"n": -2})
        for upper in (False, True):
            c.run(f"linalg_cholesky/{dtype}/batch/upper{int(upper)}", "linalg_cholesky",
                  lambda t, u=upper: L.cholesky(t, upper=u), [hpd([2, 3, 3])], {"upper": upper})
            for left in (False, True):
                rhs = rng.tensor([2, 3, 2] if left else [2, 2, 3], dtype)
                c.run(f"linalg_solve_triangular/{dtype}/u{int(upper)}l{int(left)}d0", "linalg_solve_triangular",
                      lambda x, y, u=upper, l=left: L.solve_triangular(x, y, upper=u, left=l), [wc([3, 3]), rhs],
                      {"upper": upper, "left": left, "unitriangular": False})
        for shape in ([2, 4, 3], [2, 3, 4]):
            x = rng.tensor(shape, dtype)
            sid = "x".join(map(str, shape))
            c.run(f"linalg_qr/{dtype}/{sid}/reduced", "linalg_qr", lambda t: L.qr(t, mode="reduced"), [x],
                  {"mode": "reduced"})
            c.run(f"linalg_svdvals/{dtype}/{sid}", "linalg_svdvals", L.svdvals, [x])
            c.run(f"linalg_pinv/{dtype}/{sid}", "linalg_pinv", L.pinv, [x], {"atol": None, "rtol": None})
            c.run(f"linalg_matrix_norm/{dtype}/{sid}/nuc", "linalg_matrix_norm", lambda t: L.matrix_norm(t, "nuc"), [x],
                  {"ord": "nuc", "dims": [-2, -1], "keepdim": False})
        for uplo in ("L", "U"):
            h = rng.tensor([2, 3, 3], dtype)  # not Hermitian: only the UPLO triangle is read (its diagonal's real part)
            c.run(f"linalg_eigvalsh/{dtype}/batch/{uplo}", "linalg_eigvalsh", lambda t, u=uplo: L.eigvalsh(t, UPLO=u),
                  [h], {"UPLO": uplo})
            c.run(f"linalg_eigh/{dtype}/batch/{uplo}", "linalg_eigh", lambda t, u=uplo: L.eigh(t, UPLO=u), [h],
                  {"UPLO": uplo}, note=EIG_VECTORS_NOTE)
            v = c.cases[-1]["expect"]["outputs"][1]
            c.cases[-1]["expect"]["outputs"][1] = {"dtype": v["dtype"], "shape": v["shape"], "properties": {}}
    c.error("linalg_solve_triangular/error/complex_real", "linalg_solve_triangular",
            [torch.eye(2, dtype=torch.complex64), torch.ones(2, 1)], "CT_ERR_DTYPE",
            {"upper": True, "left": True, "unitriangular": False})
    linalg_complex_lstsq_cases(c)


def linalg_complex_lstsq_cases(c):
    """linalg.lstsq of complex A and B (issues 14/15): gelsd's four outputs (complex solution, real residuals and
    singular values, int64 rank) of a batch of tall matrices and gels' minimum-norm solution of a wide one, with
    torch 1.13's complex gradients of the solution; complex A with real B is torch's dtype error. c is linalg()'s
    Float64Runs."""
    L = torch.linalg
    for dtype in COMPLEXES:
        rng = Rng(len(c.cases))
        c.run(f"linalg_lstsq_ex/{dtype}/gelsd/2x5x3", "linalg_lstsq_ex",
              lambda p, q: tuple(L.lstsq(p, q, driver="gelsd")), [rng.tensor([2, 5, 3], dtype),
                                                                  rng.tensor([2, 5, 2], dtype)],
              {"rcond": None, "driver": "gelsd"})
        c.run(f"linalg_lstsq/{dtype}/3x4", "linalg_lstsq", lambda p, q: L.lstsq(p, q, driver="gels").solution,
              [rng.tensor([3, 4], dtype), rng.tensor([3, 2], dtype)])
    c.error("linalg_lstsq/error/complex_real", "linalg_lstsq", [torch.eye(3, 2, dtype=torch.complex64),
                                                               torch.ones(3, 1)], "CT_ERR_DTYPE")


def linalg_composites(c, wc):
    """matrix_power, cross, vector_norm, matrix_norm, pinv, matrix_rank and lstsq (composites of other ops); c is
    linalg()'s Float64Runs."""
    L = torch.linalg
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        a = wc(rng, [2, 3, 3], dtype)
        for n in (0, 1, 2, 3, -1, -2):
            c.run(f"linalg_matrix_power/{dtype}/n{n}", "linalg_matrix_power", lambda t, n=n: L.matrix_power(t, n), [a],
                  {"n": n})
        c.run(f"linalg_matrix_power/{dtype}/2d", "linalg_matrix_power", lambda t: L.matrix_power(t, 3), [a[0]], {"n": 3})
        for name, x, y, dim in (("rows", rng.tensor([4, 3], dtype), rng.tensor([4, 3], dtype), -1),
                                ("dim0_broadcast", rng.tensor([3, 2], dtype), rng.tensor([3, 1], dtype), 0),
                                ("1d", rng.tensor([3], dtype), rng.tensor([3], dtype), -1)):
            c.run(f"linalg_cross/{dtype}/{name}", "linalg_cross", lambda p, q, d=dim: L.cross(p, q, dim=d), [x, y],
                  {"dim": dim})
        x = rng.tensor([3, 4], dtype)
        for ord in (2.0, 1.0, 3.0, float("inf"), float("-inf"), -1.0, 0.0):
            for dims, keep in ((None, False), ([1], True), ([0, 1], False), ([-2], False)):
                c.run(f"linalg_vector_norm/{dtype}/{ord}/{dims}/{int(keep)}", "linalg_vector_norm",
                      lambda t, o=ord, d=dims, k=keep: L.vector_norm(t, o, d, k), [x],
                      {"ord": encode(ord), "dims": dims, "keepdim": keep}, differentiable=ord != 0.0)
        m = rng.tensor([2, 3, 4], dtype)
        for ord in ("fro", "nuc", "inf", "-inf", "1", "-1", "2", "-2"):
            tord = ord if ord in ("fro", "nuc") else float(ord)
            for dims, keep in (([-2, -1], False), ([2, 0], True), ([0, 1], False)):
                c.run(f"linalg_matrix_norm/{dtype}/{ord}/{dims}/{int(keep)}", "linalg_matrix_norm",
                      lambda t, o=tord, d=dims, k=keep: L.matrix_norm(t, o, d, k), [m],
                      {"ord": ord, "dims": dims, "keepdim": keep})
        for shape in ([4, 3], [3, 4], [2, 3, 3]):
            g = rng.tensor(shape, dtype)
            sid = "x".join(map(str, shape))
            c.run(f"linalg_pinv/{dtype}/{sid}", "linalg_pinv", L.pinv, [g], {"atol": None, "rtol": None})
            c.run(f"linalg_matrix_rank/{dtype}/{sid}", "linalg_matrix_rank", L.matrix_rank, [g],
                  {"atol": None, "rtol": None}, differentiable=False)
            c.run(f"linalg_lstsq/{dtype}/{sid}", "linalg_lstsq", lambda p, q: L.lstsq(p, q, driver="gels").solution,
                  [g, rng.tensor(shape[:-1] + [2], dtype)])
            # a B with one dim less is a (batch of) vector(s); torch 1.13's backward fails there: values only
            c.run(f"linalg_lstsq/{dtype}/{sid}/vector", "linalg_lstsq", lambda p, q: L.lstsq(p, q).solution,
                  [g, rng.tensor(shape[:-1], dtype)], differentiable=False)
        low = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], dtype=DTYPES[dtype])
        for atol, rtol in ((None, None), (0.5, None), (None, 0.3), (2.0, 0.1)):
            c.run(f"linalg_matrix_rank/{dtype}/low/{atol}_{rtol}", "linalg_matrix_rank",
                  lambda t, a=atol, r=rtol: L.matrix_rank(t, atol=a, rtol=r), [low], {"atol": atol, "rtol": rtol},
                  differentiable=False)
            c.run(f"linalg_pinv/{dtype}/low/{atol}_{rtol}", "linalg_pinv",
                  lambda t, a=atol, r=rtol: L.pinv(t, atol=a, rtol=r), [low], {"atol": atol, "rtol": rtol},
                  differentiable=False)
        tall, rhs = rng.tensor([5, 3], dtype), rng.tensor([5, 2], dtype)
        for driver in ("gelsy", "gels", "gelsd", "gelss"):  # every output: residuals, rank, singular values
            for rcond in ((None, 0.5) if driver in ("gelsd", "gelss") else (None,)):
                c.run(f"linalg_lstsq_ex/{dtype}/{driver}/{rcond}", "linalg_lstsq_ex",
                      lambda p, q, d=driver, r=rcond: tuple(L.lstsq(p, q, rcond=r, driver=d)), [tall, rhs],
                      {"rcond": rcond, "driver": driver})
        if dtype == "float64":  # rank 2 of 3 (float32's rank decision sits too near rcond to be a fixed case)
            # gelsy's minimum-norm solution; the gradient is that of pinv(A) @ B in both libraries
            c.run(f"linalg_lstsq/{dtype}/rank_deficient", "linalg_lstsq", lambda p, q: L.lstsq(p, q).solution,
                  [low, rng.tensor([3, 2], dtype)])
    c.error("linalg_cross/error/size", "linalg_cross", [torch.zeros(2, 4), torch.zeros(2, 4)], "CT_ERR_SHAPE", {"dim": -1})
    c.error("linalg_matrix_power/error/not_square", "linalg_matrix_power", [torch.zeros(2, 3)], "CT_ERR_SHAPE", {"n": 2})
    c.error("linalg_vector_norm/error/dtype", "linalg_vector_norm", [torch.tensor([1, 2])], "CT_ERR_DTYPE",
            {"ord": 2.0, "dims": None, "keepdim": False})
    c.error("linalg_matrix_norm/error/1d", "linalg_matrix_norm", [torch.zeros(3)], "CT_ERR_SHAPE",
            {"ord": "fro", "dims": [-2, -1], "keepdim": False})
    c.error("linalg_pinv/error/dtype", "linalg_pinv", [torch.tensor([[1, 0], [0, 1]])], "CT_ERR_DTYPE",
            {"atol": None, "rtol": None})
    c.error("linalg_lstsq/error/shapes", "linalg_lstsq", [torch.zeros(3, 2), torch.zeros(4, 1)], "CT_ERR_SHAPE")
    c.error("linalg_lstsq/error/dims", "linalg_lstsq", [torch.zeros(3, 2), torch.zeros(2, 3, 1)], "CT_ERR_SHAPE")
    c.error("linalg_lstsq_ex/error/gels_rank", "linalg_lstsq_ex",
            [torch.tensor([[1.0, 0.0], [0.0, 0.0], [2.0, 0.0]]), torch.ones(3, 1)], "CT_ERR_INVALID_ARGUMENT",
            {"rcond": None, "driver": "gels"}, note="torch 1.13 raises torch.linalg.LinAlgError (a RuntimeError)")


def attention(c):
    """scaled_dot_product_attention (torch 1.13 has no fused op: softmax(q k^T * scale + mask) v, in float64 and
    rounded) with bool / float masks, causal and scale (0 = 1/sqrt(E)); multi_head_attention_forward with packed
    weights, a key padding mask and the head-averaged weights; their errors."""
    F = torch.nn.functional

    def sdpa(q, k, v, mask=None, causal=False, scale=0.0):
        q64, k64, v64 = q.double(), k.double(), v.double()
        s = q64 @ k64.transpose(-2, -1) * (scale if scale > 0 else 1 / math.sqrt(q.shape[-1]))
        if mask is not None:
            s = s + (torch.zeros(mask.shape, dtype=torch.float64).masked_fill(~mask, -math.inf)
                     if mask.dtype == torch.bool else mask.double())
        if causal:
            s = s + torch.full(s.shape[-2:], -math.inf, dtype=torch.float64).triu(1)
        return (torch.softmax(s, -1) @ v64).to(q.dtype)

    for dtype in FLOATS:
        rng = Rng(len(c.cases) + 7)
        q, k, v = rng.tensor([2, 3, 4], dtype), rng.tensor([2, 5, 4], dtype), rng.tensor([2, 5, 3], dtype)
        a = {"dropout_p": 0.0, "is_causal": False, "scale": 0.0}
        c.run(f"scaled_dot_product_attention/{dtype}/plain", "scaled_dot_product_attention", sdpa, [q, k, v], a)
        q4, k4, v4 = rng.tensor([1, 2, 6, 4], dtype), rng.tensor([1, 2, 6, 4], dtype), rng.tensor([1, 2, 6, 2], dtype)
        a = {"dropout_p": 0.0, "is_causal": True, "scale": 0.3}
        c.run(f"scaled_dot_product_attention/{dtype}/causal_scale", "scaled_dot_product_attention",
              lambda *t: sdpa(*t, causal=True, scale=0.3), [q4, k4, v4], a)
        bool_mask = rng.tensor([3, 5], "bool")
        bool_mask[:, 0] = True  # every query attends to something
        a = {"dropout_p": 0.0, "is_causal": False, "scale": 0.0}
        c.run(f"scaled_dot_product_attention/{dtype}/bool_mask", "scaled_dot_product_attention",
              lambda q, k, v, m: sdpa(q, k, v, m), [q, k, v, bool_mask], a)
        c.run(f"scaled_dot_product_attention/{dtype}/float_mask", "scaled_dot_product_attention",
              lambda q, k, v, m: sdpa(q, k, v, m), [q, k, v, rng.tensor([2, 1, 5], dtype)], a)
        c.error(f"scaled_dot_product_attention/{dtype}/error/key_dim", "scaled_dot_product_attention",
                [q, rng.tensor([2, 5, 3], dtype), v], "CT_ERR_SHAPE", a)
        c.error(f"scaled_dot_product_attention/{dtype}/error/mask_dtype", "scaled_dot_product_attention",
                [q, k, v, torch.zeros(3, 5, dtype=torch.int64)], "CT_ERR_DTYPE", a)
        query, key, value = rng.tensor([4, 2, 8], dtype), rng.tensor([5, 2, 8], dtype), rng.tensor([5, 2, 8], dtype)
        w_in, b_in = rng.tensor([24, 8], dtype, -0.5, 0.5), rng.tensor([24], dtype)
        w_out, b_out = rng.tensor([8, 8], dtype, -0.5, 0.5), rng.tensor([8], dtype)
        kpm = torch.tensor([[False] * 5, [False, False, False, True, True]])
        a = {"num_heads": 2, "need_weights": True}

        def mha(*t):
            t64 = [x.double() if x.is_floating_point() else x for x in t]
            out, w = F.multi_head_attention_forward(t64[0], t64[1], t64[2], 8, 2, t64[3], t64[4], None, None, False,
                                                    0.0, t64[5], t64[6], training=False,
                                                    key_padding_mask=t64[7] if len(t64) > 7 else None)
            return out.to(t[0].dtype), w.to(t[0].dtype)
        c.run(f"multi_head_attention_forward/{dtype}/packed", "multi_head_attention_forward", mha,
              [query, key, value, w_in, b_in, w_out, b_out], a)
        c.run(f"multi_head_attention_forward/{dtype}/key_padding_mask", "multi_head_attention_forward", mha,
              [query, key, value, w_in, b_in, w_out, b_out, kpm], a)
        c.error(f"multi_head_attention_forward/{dtype}/error/heads", "multi_head_attention_forward",
                [query, key, value, w_in, b_in, w_out, b_out], "CT_ERR_INVALID_ARGUMENT", dict(a, num_heads=3))


def conv_nd(c):
    """Issue 14: N-d (transposed) convolution, N-d pooling, unfold / fold, pixel_shuffle / pixel_unshuffle."""
    F = torch.nn.functional
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        for nd, xs, ws, stride, padding, dilation, out_pad, groups, transposed in (
                (1, [2, 4, 7], [6, 2, 3], [2], [1], [1], [0], 2, False),
                (3, [1, 2, 4, 3, 5], [3, 2, 2, 2, 3], [1, 1, 2], [1, 0, 1], [1, 2, 1], [0, 0, 0], 1, False),
                (1, [2, 3, 4], [3, 2, 3], [2], [1], [1], [1], 1, True),
                (2, [1, 4, 3, 4], [4, 1, 3, 2], [2, 1], [1, 0], [1, 2], [1, 1], 2, True),
                (3, [1, 2, 2, 3, 2], [2, 2, 2, 2, 3], [2, 1, 2], [0, 1, 1], [1, 1, 1], [1, 0, 0], 1, True)):
            x, w = rng.tensor(xs, dtype), rng.tensor(ws, dtype)
            out_ch = ws[1] * groups if transposed else ws[0]
            inputs = [x, w, rng.tensor([out_ch], dtype)]
            a = {"stride": stride, "padding": padding, "dilation": dilation, "ndim_spatial": nd,
                 "transposed": transposed, "output_padding": out_pad, "groups": groups}

            def conv(*t, a=a, nd=nd):  # in float64 and rounded, like conv2d's cases (reproducible float32)
                t64 = [v.double() for v in t]
                if a["transposed"]:
                    fn = getattr(F, "conv_transpose%dd" % nd)
                    y = fn(t64[0], t64[1], t64[2], a["stride"], a["padding"], a["output_padding"], a["groups"],
                           a["dilation"])
                else:
                    fn = getattr(F, "conv%dd" % nd)
                    y = fn(t64[0], t64[1], t64[2], a["stride"], a["padding"], a["dilation"], a["groups"])
                return y.to(t[0].dtype)
            kind = "transpose" if transposed else "conv"
            c.run(f"convolution/{dtype}/{kind}{nd}d/{ws}/s{stride}/p{padding}/d{dilation}/op{out_pad}/g{groups}",
                  "convolution", conv, inputs, a)
        x1, x3 = rng.tensor([2, 3, 9], dtype), rng.tensor([1, 2, 5, 4, 6], dtype)
        for x, nd, kernel, stride, padding, dilation, ceil_mode in (
                (x1, 1, [3], [2], [1], [1], False), (x1, 1, [2], [3], [1], [2], True),
                (x3, 3, [2, 3, 2], [1, 2, 2], [1, 1, 0], [1, 1, 2], False), (x3, 3, [3, 2, 2], [2, 2, 2], [1, 0, 1],
                                                                             [1, 1, 1], True)):
            a = {"ndim_spatial": nd, "kernel": kernel, "stride": stride, "padding": padding, "dilation": dilation,
                 "ceil_mode": ceil_mode}
            fn = getattr(F, "max_pool%dd" % nd)
            c.run(f"max_pool_nd/{dtype}/{nd}d/k{kernel}/s{stride}/p{padding}/d{dilation}/ceil{int(ceil_mode)}",
                  "max_pool_nd", lambda t, a=a, fn=fn: fn(t, a["kernel"], a["stride"], a["padding"], a["dilation"],
                                                          a["ceil_mode"], return_indices=True), [x], a)
        for x, nd, kernel, stride, padding, ceil_mode, include, divisor in (
                (x1, 1, [3], [2], [1], True, False, 0), (x3, 3, [3, 2, 3], [2, 1, 2], [1, 1, 1], False, True, 0),
                (x3, 3, [2, 2, 2], [2, 2, 2], [1, 0, 1], True, True, 5)):
            a = {"ndim_spatial": nd, "kernel": kernel, "stride": stride, "padding": padding, "ceil_mode": ceil_mode,
                 "count_include_pad": include, "divisor_override": divisor}

            def avg(t, a=a, nd=nd):
                args = [t, a["kernel"], a["stride"], a["padding"], a["ceil_mode"], a["count_include_pad"]]
                return getattr(F, "avg_pool%dd" % nd)(*args, *([a["divisor_override"] or None] if nd == 3 else []))
            c.run(f"avg_pool_nd/{dtype}/{nd}d/k{kernel}/ceil{int(ceil_mode)}/inc{int(include)}/div{divisor}",
                  "avg_pool_nd", avg, [x], a)
        for x, nd, size in ((x1, 1, [4]), (x3, 3, [3, 2, 4])):
            a = {"ndim_spatial": nd, "output_size": size}
            c.run(f"adaptive_avg_pool_nd/{dtype}/{nd}d/{size}", "adaptive_avg_pool_nd",
                  lambda t, a=a, nd=nd: getattr(F, "adaptive_avg_pool%dd" % nd)(t, a["output_size"]), [x], a)
            c.run(f"adaptive_max_pool_nd/{dtype}/{nd}d/{size}", "adaptive_max_pool_nd",
                  lambda t, a=a, nd=nd: getattr(F, "adaptive_max_pool%dd" % nd)(t, a["output_size"], True), [x], a)
        img = rng.tensor([2, 3, 5, 4], dtype)
        a = {"kernel": [2, 3], "dilation": [2, 1], "padding": [1, 1], "stride": [1, 2]}
        c.run(f"unfold/{dtype}", "unfold", lambda t, a=a: F.unfold(t, a["kernel"], a["dilation"], a["padding"],
                                                                   a["stride"]), [img], a)
        cols = rng.tensor([2, 3 * 6, 10], dtype)
        a = {"output_size": [5, 4], "kernel": [2, 3], "dilation": [2, 1], "padding": [1, 1], "stride": [1, 2]}
        c.run(f"fold/{dtype}", "fold", lambda t, a=a: F.fold(t, a["output_size"], a["kernel"], a["dilation"],
                                                             a["padding"], a["stride"]), [cols], a)
        ps = rng.tensor([2, 8, 2, 4], dtype)
        c.run(f"pixel_shuffle/{dtype}", "pixel_shuffle", lambda t: F.pixel_shuffle(t, 2), [ps], {"upscale_factor": 2})
        c.run(f"pixel_unshuffle/{dtype}", "pixel_unshuffle", lambda t: F.pixel_unshuffle(t, 2), [ps],
              {"downscale_factor": 2})
    x = torch.zeros(1, 4, 5)
    c.error("convolution/error/groups", "convolution", [x, torch.zeros(3, 4, 3)], "CT_ERR_SHAPE",
            {"stride": [1], "padding": [0], "dilation": [1], "ndim_spatial": 1, "transposed": False,
             "output_padding": [0], "groups": 3})
    c.error("convolution/error/output_padding", "convolution", [x, torch.zeros(4, 2, 3)], "CT_ERR_INVALID_ARGUMENT",
            {"stride": [2], "padding": [0], "dilation": [1], "ndim_spatial": 1, "transposed": True,
             "output_padding": [2], "groups": 1})
    c.error("max_pool_nd/error/padding", "max_pool_nd", [x], "CT_ERR_INVALID_ARGUMENT",
            {"ndim_spatial": 1, "kernel": [2], "stride": [1], "padding": [2], "dilation": [1], "ceil_mode": False})
    c.error("fold/error/blocks", "fold", [torch.zeros(1, 8, 5)], "CT_ERR_SHAPE",
            {"output_size": [3, 3], "kernel": [2, 2], "dilation": [1, 1], "padding": [0, 0], "stride": [1, 1]})
    c.error("pixel_shuffle/error/channels", "pixel_shuffle", [torch.zeros(1, 3, 2, 2)], "CT_ERR_SHAPE",
            {"upscale_factor": 2})
RNN_VF = {"rnn_relu": "rnn_relu", "rnn_tanh": "rnn_tanh", "lstm": "lstm", "gru": "gru"}
RNN_GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}


def rnn_weights(rng, mode, dtype, I, H, layers, dirs, bias, proj):
    """Weights of a stack in torch's _flat_weights order, values in [-0.6, 0.6)."""
    G, Hout, ws = RNN_GATES[mode], proj or H, []
    for layer in range(layers):
        for _ in range(dirs):
            shapes = [[G * H, I if layer == 0 else dirs * Hout], [G * H, Hout]]
            shapes += [[G * H], [G * H]] if bias else []
            shapes += [[proj, H]] if proj else []
            ws += [rng.tensor(s, dtype, -0.6, 0.6) for s in shapes]
    return ws


def rnn_stack(mode, a, x, h, c, ws):
    """torch's fused stack (_VF) for the case's args: (out, hy), or (out, hy, cy) for LSTM."""
    hx = (h, c) if mode == "lstm" else h
    fn = getattr(torch._VF, RNN_VF[mode])
    common = (a["has_biases"], a["num_layers"], 0.0, False, a["bidirectional"])
    if "batch_sizes" in a:
        res = fn(x, torch.tensor(a["batch_sizes"]), hx, ws, *common)
    else:
        res = fn(x, hx, ws, *common, a["batch_first"])
    return tuple(res)


def recurrent(c):
    """rnn (the fused stack) and rnn_cell for every mode: one layer and two bidirectional batch_first layers, no
    biases, LSTM's projection, packed rows (batch_sizes), cells batched and unbatched, and bad input. Inputs are
    [x, hx, (cx for LSTM), weights...]; gradients are of the output sequence."""
    for dtype in FLOATS:
        for mode in RNN_GATES:
            lstm = mode == "lstm"
            configs = [("l1", dict(num_layers=1, bidirectional=False, batch_first=False, has_biases=True), 0, None),
                       ("l2_bidir_bf", dict(num_layers=2, bidirectional=True, batch_first=True, has_biases=True), 0, None),
                       ("packed_bidir", dict(num_layers=2, bidirectional=True, batch_first=False, has_biases=True), 0,
                        [3, 3, 2, 1]),
                       ("nobias", dict(num_layers=1, bidirectional=False, batch_first=False, has_biases=False), 0, None)]
            if lstm:
                configs.append(("proj_bidir", dict(num_layers=2, bidirectional=True, batch_first=False,
                                                   has_biases=True), 2, None))
            for name, cfg, proj, bs in configs:
                rng = Rng(len(c.cases) + 31)
                T, B, I, H = 4, 3, 3, 4
                dirs, Hout = 2 if cfg["bidirectional"] else 1, proj or H
                a = dict(cfg, mode=mode, proj_size=proj)
                if bs:
                    a["batch_sizes"] = bs
                    x = rng.tensor([sum(bs), I], dtype, -1.0, 1.0)
                    B = bs[0]
                else:
                    x = rng.tensor([B, T, I] if cfg["batch_first"] else [T, B, I], dtype, -1.0, 1.0)
                h = rng.tensor([cfg["num_layers"] * dirs, B, Hout], dtype, -1.0, 1.0)
                cs = [rng.tensor([cfg["num_layers"] * dirs, B, H], dtype, -1.0, 1.0)] if lstm else []
                ws = rnn_weights(rng, mode, dtype, I, H, cfg["num_layers"], dirs, cfg["has_biases"], proj)
                c.run(f"rnn/{dtype}/{mode}/{name}", "rnn",
                      lambda x, h, *r, mode=mode, a=a, lstm=lstm: rnn_stack(
                          mode, a, x, h, r[0] if lstm else None, list(r[1:] if lstm else r)),
                      [x, h, *cs, *ws], a)
            for name, xs, hs in (("batched", [2, 3], [2, 4]), ("unbatched", [3], [4])):
                if name == "unbatched" and dtype == "float32":
                    continue
                rng = Rng(len(c.cases) + 37)
                x, h = rng.tensor(xs, dtype, -1.0, 1.0), rng.tensor(hs, dtype, -1.0, 1.0)
                cs = [rng.tensor(hs, dtype, -1.0, 1.0)] if lstm else []
                ws = rnn_weights(rng, mode, dtype, 3, 4, 1, 1, True, 0)
                cell = getattr(torch._VF, RNN_VF[mode] + "_cell")

                def step(x, h, *r, cell=cell, lstm=lstm, one=len(xs) == 1):
                    """torch's cell (batched only; an unbatched step is the module's unsqueeze / squeeze)."""
                    x, h, r = (x[None], h[None], [r[0][None], *r[1:]] if lstm else r) if one else (x, h, r)
                    out = cell(x, (h, r[0]), *r[1:]) if lstm else (cell(x, h, *r),)
                    return tuple(o[0] for o in out) if one else tuple(out)
                c.run(f"rnn_cell/{dtype}/{mode}/{name}", "rnn_cell", step, [x, h, *cs, *ws], {"mode": mode})
    rng = Rng(41)
    x, h = rng.tensor([4, 3, 3], "float32"), rng.tensor([1, 3, 4], "float32")
    ws = rnn_weights(rng, "gru", "float32", 3, 4, 1, 1, True, 0)
    a = dict(mode="gru", num_layers=1, bidirectional=False, batch_first=False, has_biases=True, proj_size=0)
    c.error("rnn/error/rank", "rnn", [x[0], h, *ws], "CT_ERR_SHAPE", a)
    c.error("rnn/error/num_weights", "rnn", [x, h, *ws[:3]], "CT_ERR_INVALID_ARGUMENT", a)
    c.error("rnn/error/hidden", "rnn", [x, h[:, :, :3], *ws], "CT_ERR_SHAPE", a)
    c.error("rnn/error/input_size", "rnn", [x[:, :, :2], h, *ws], "CT_ERR_SHAPE", a)
    c.error("rnn/error/batch_sizes", "rnn", [x.reshape(12, 3), h, *ws], "CT_ERR_INVALID_ARGUMENT",
            dict(a, batch_sizes=[2, 3, 3, 4]))
    c.error("rnn_cell/error/hidden", "rnn_cell", [x[0], h[0, :, :3], *ws], "CT_ERR_SHAPE", {"mode": "gru"})


def toolbox(c):
    """Issue 14's indexed writes. index_put's inputs are [x, values, index_0, ..., index_{n-1}] (n = len - 2)."""
    for dtype in FLOATS:
        for shape, dim, idx, alpha in (([4, 3], 0, [2, 0, 2], 1.0), ([4, 3], 1, [1], -2.5), ([2, 3, 4], -1, [3, 0], 0.5),
                                       ([4, 3], 0, [], 1.0)):
            rng = Rng(len(c.cases))
            src_shape = list(shape)
            src_shape[dim] = len(idx)
            x, src, index = rng.tensor(shape, dtype), rng.tensor(src_shape, dtype), torch.tensor(idx, dtype=torch.int64)
            c.run(f"index_add/{dtype}/{shape}/{dim}/{idx}/{alpha}", "index_add",
                  lambda t, i, s, d=dim, a=alpha: torch.index_add(t, d, i, s, alpha=a), [x, index, src],
                  {"dim": dim, "alpha": alpha})
            if len(set(idx)) == len(idx):  # torch leaves duplicates in index_copy unspecified
                c.run(f"index_copy/{dtype}/{shape}/{dim}/{idx}", "index_copy",
                      lambda t, i, s, d=dim: torch.index_copy(t, d, i, s), [x, index, src], {"dim": dim})
        for shape, idxs, vshape, acc in (([4, 3], [[0, 2]], [2, 3], False), ([4, 3], [[0, -1], [2, 1]], [2], False),
                                         ([4, 3], [[1, 1, 3]], [3], True), ([2, 3, 2], [[[1], [0]], [2, 0, -3]], [1], True),
                                         ([4, 3], [[-4, 3], [0, 0]], [], False)):
            rng = Rng(len(c.cases))
            x, v = rng.tensor(shape, dtype), rng.tensor(vshape, dtype)
            index = [torch.tensor(i, dtype=torch.int64) for i in idxs]
            c.run(f"index_put/{dtype}/{shape}/{idxs}/{vshape}/acc{int(acc)}", "index_put",
                  lambda t, v, *i, a=acc: torch.index_put(t, i, v, a), [x, v] + index, {"accumulate": acc})
    # counting and searching (searchsorted's inputs: sorted_sequence, values[, sorter]; bincount's: x[, weights])
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        seq = torch.sort(rng.tensor([2, 5], dtype), dim=-1).values
        vals = rng.tensor([2, 3], dtype)
        for right in (False, True):
            c.run(f"searchsorted/{dtype}/nd/right{int(right)}", "searchsorted",
                  lambda s, v, r=right: torch.searchsorted(s, v, right=r), [seq, vals],
                  {"right": right, "out_int32": False})
            c.run(f"searchsorted/{dtype}/1d/right{int(right)}", "searchsorted",
                  lambda s, v, r=right: torch.searchsorted(s, v, right=r, out_int32=True), [seq[0], vals],
                  {"right": right, "out_int32": True})
        raw = rng.tensor([6], dtype)
        c.run(f"searchsorted/{dtype}/sorter", "searchsorted",
              lambda s, v, o: torch.searchsorted(s, v, sorter=o), [raw, vals, torch.argsort(raw)],
              {"right": False, "out_int32": False})
        x = rng.tensor([40], dtype)
        for bins, lo, hi in ((5, 0.0, 0.0), (4, -1.0, 1.0), (3, 0.5, 0.5)):
            c.run(f"histc/{dtype}/{bins}/{lo}/{hi}", "histc", lambda t, b=bins, l=lo, h=hi: torch.histc(t, b, l, h), [x],
                  {"bins": bins, "min": lo, "max": hi}, differentiable=False)
        w = rng.tensor([3, 4], dtype)
        for dim in (0, 1, -1):
            c.run(f"cummax/{dtype}/{dim}", "cummax", lambda t, d=dim: tuple(torch.cummax(t, d)), [w], {"dim": dim})
            c.run(f"cummin/{dtype}/{dim}", "cummin", lambda t, d=dim: tuple(torch.cummin(t, d)), [w], {"dim": dim})
        c.run(f"bincount/{dtype}/weights", "bincount", lambda i, wt: torch.bincount(i, wt, 7),
              [torch.tensor([0, 3, 3, 1, 5]), rng.tensor([5], dtype)], {"minlength": 7}, differentiable=False)
    # composites: diff's inputs are x then the given ones of prepend / append (args say which)
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        special = torch.tensor([1.5, float("nan"), float("inf"), float("-inf"), -2.0, 0.0], dtype=DTYPES[dtype])
        for nan, posinf, neginf in ((None, None, None), (2.0, None, -3.0), (0.5, 1e3, -1e3)):
            kw = {k: v for k, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)) if v is not None}
            c.run(f"nan_to_num/{dtype}/{nan}/{posinf}/{neginf}", "nan_to_num", lambda t, kw=kw: torch.nan_to_num(t, **kw),
                  [special], {"nan": nan, "posinf": posinf, "neginf": neginf})
        x = rng.tensor([3, 4], dtype)
        for n, dim, pre, app in ((1, -1, None, None), (2, 0, None, None), (1, 1, [3, 2], None), (2, 1, None, [3, 1]),
                                 (3, 0, [1, 4], [2, 4])):
            extra = [rng.tensor(t, dtype) for t in (pre, app) if t is not None]
            c.run(f"diff/{dtype}/{n}/{dim}/{pre}/{app}", "diff",
                  lambda t, *e, n=n, d=dim, p=pre is not None, a=app is not None:
                  torch.diff(t, n, d, e[0] if p else None, e[-1] if a else None),
                  [x] + extra, {"n": n, "dim": dim, "prepend": pre is not None, "append": app is not None})
        for ishape, dim in (((3, 1), 1), ((1, 4), 0), ((5,), None), ((3, 2), -1)):
            limit = 12 if dim is None else x.shape[dim]
            idx = torch.tensor([[(3 * k + 1) % limit for k in range(ishape[-1])] for _ in range(ishape[0])]
                               if len(ishape) == 2 else [(5 * k + 2) % limit for k in range(ishape[0])])
            c.run(f"take_along_dim/{dtype}/{list(ishape)}/{dim}", "take_along_dim",
                  lambda t, i, d=dim: torch.take_along_dim(t, i, d), [x, idx], {"dim": dim})
    c.error("diff/error/order", "diff", [torch.zeros(3)], "CT_ERR_INVALID_ARGUMENT",
            {"n": -1, "dim": 0, "prepend": False, "append": False})
    c.error("take_along_dim/error/rank", "take_along_dim", [torch.zeros(3), torch.zeros(1, 1, dtype=torch.int64)],
            "CT_ERR_SHAPE", {"dim": 0})
    c.run("bincount/int64", "bincount", lambda i: torch.bincount(i), [torch.tensor([2, 0, 2, 4, 2])], {"minlength": 0})
    c.run("cummax/int32/ties", "cummax", lambda t: tuple(torch.cummax(t, 0)), [torch.tensor([1, 3, 3, 2], dtype=torch.int32)],
          {"dim": 0})
    c.error("bincount/error/negative", "bincount", [torch.tensor([1, -1])], "CT_ERR_INVALID_ARGUMENT", {"minlength": 0})
    c.error("histc/error/bins", "histc", [torch.zeros(3)], "CT_ERR_INVALID_ARGUMENT", {"bins": 0, "min": 0.0, "max": 1.0})
    c.error("cummin/error/dim", "cummin", [torch.zeros(3)], "CT_ERR_INDEX", {"dim": 1})
    c.error("searchsorted/error/shape", "searchsorted", [torch.zeros(2, 3), torch.zeros(3, 1)], "CT_ERR_SHAPE",
            {"right": False, "out_int32": False})
    x = torch.zeros(4, 3)
    c.error("index_add/error/range", "index_add", [x, torch.tensor([4]), torch.ones(1, 3)], "CT_ERR_INDEX",
            {"dim": 0, "alpha": 1.0})
    c.error("index_copy/error/shape", "index_copy", [x, torch.tensor([0, 1]), torch.ones(1, 3)], "CT_ERR_SHAPE",
            {"dim": 0})
    c.error("index_put/error/range", "index_put", [x, torch.tensor(1.0), torch.tensor([0, 5])], "CT_ERR_INDEX",
            {"accumulate": False})
    # the in-place forms: the output is a clone of input 0 written in place, so the gradients flow through the
    # rebased history to x and to the sources (scatter_ positions unique per column: torch leaves duplicates open)
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        x, src = rng.tensor([4, 3], dtype), rng.tensor([2, 3], dtype)
        scatter_index = torch.tensor([[3, 0, 1], [1, 2, 3]])
        for op in ("scatter_", "scatter_add_"):
            c.run(f"{op}/{dtype}", op, lambda t, i, s, op=op: getattr(t.clone(), op)(0, i, s), [x, scatter_index, src],
                  {"dim": 0})
        index = torch.tensor([2, 0])
        c.run(f"index_add_/{dtype}", "index_add_", lambda t, i, s: t.clone().index_add_(0, i, s, alpha=-1.5),
              [x, index, src], {"dim": 0, "alpha": -1.5})
        c.run(f"index_copy_/{dtype}", "index_copy_", lambda t, i, s: t.clone().index_copy_(0, i, s), [x, index, src],
              {"dim": 0})
        values, rows, cols = rng.tensor([2], dtype), torch.tensor([0, 3]), torch.tensor([2, 2])
        for acc in (False, True):
            c.run(f"index_put_/{dtype}/acc{int(acc)}", "index_put_",
                  lambda t, v, *i, a=acc: t.clone().index_put_(i, v, a), [x, values, rows, cols], {"accumulate": acc})
    scatter_reduce_cases(c)
    toolbox_stats(c)


def scatter_reduce_cases(c):
    """scatter_reduce and scatter_reduce_ (inputs x, index, src; index has duplicates), every reduction with and without
    x's own values, with torch 1.13's gradients. A src larger than index (only its covered part counts) is checked
    without gradients: torch 1.13's backward returns a src gradient of index's shape there and fails."""
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        x = rng.tensor([4, 3], dtype)
        for dim, index in ((0, [[3, 0, 3], [1, 3, 3]]), (1, [[2, 2, 0], [1, 0, 1], [2, 2, 2]]), (-1, [[0], [2], [1], [0]])):
            src = rng.tensor([len(index), len(index[0])], dtype)
            for reduce in ("sum", "prod", "mean", "amax", "amin"):
                for include_self in (True, False):
                    c.run(f"scatter_reduce/{dtype}/{dim}/{index}/{reduce}/self{int(include_self)}", "scatter_reduce",
                          lambda t, i, s, d=dim, r=reduce, inc=include_self:
                          torch.scatter_reduce(t, d, i, s, r, include_self=inc),
                          [x, torch.tensor(index), src], {"dim": dim, "reduce": reduce, "include_self": include_self})
        wide = rng.tensor([3, 4], dtype)
        for reduce in ("sum", "amin"):
            c.run(f"scatter_reduce/{dtype}/wide_src/{reduce}", "scatter_reduce",
                  lambda t, i, s, r=reduce: torch.scatter_reduce(t, 0, i, s, r), [x, torch.tensor([[3, 0], [3, 1]]), wide],
                  {"dim": 0, "reduce": reduce, "include_self": True}, differentiable=False)
        src = rng.tensor([2, 3], dtype)
        for reduce in ("prod", "amax"):
            c.run(f"scatter_reduce_/{dtype}/{reduce}", "scatter_reduce_",
                  lambda t, i, s, r=reduce: t.clone().scatter_reduce_(0, i, s, r, include_self=False),
                  [x, torch.tensor([[3, 0, 3], [1, 3, 3]]), src], {"dim": 0, "reduce": reduce, "include_self": False})
    for reduce in ("sum", "mean", "amin"):
        c.run(f"scatter_reduce/int32/{reduce}", "scatter_reduce",
              lambda t, i, s, r=reduce: torch.scatter_reduce(t, 0, i, s, r),
              [torch.tensor([5, -7, 9], dtype=torch.int32), torch.tensor([0, 2, 0, 2]),
               torch.tensor([4, 2, -3, 6], dtype=torch.int32)], {"dim": 0, "reduce": reduce, "include_self": True})
    c.error("scatter_reduce/error/range", "scatter_reduce", [torch.zeros(4, 3), torch.tensor([[4]]), torch.zeros(1, 1)],
            "CT_ERR_INDEX", {"dim": 0, "reduce": "sum", "include_self": True})
    c.error("scatter_reduce/error/dtype", "scatter_reduce", [torch.zeros(3), torch.tensor([0]), torch.zeros(1, dtype=torch.float64)],
            "CT_ERR_DTYPE", {"dim": 0, "reduce": "amax", "include_self": True})


def toolbox_stats(c):
    """The rest of the toolbox (issue 14): median and nanmedian (all elements and along a dim), quantile and
    nanquantile with a scalar q, cdist, repeat_interleave (a count or a tensor of counts) and meshgrid."""
    for dtype in FLOATS:
        rng = Rng(len(c.cases))
        x = rng.tensor([3, 5], dtype)  # distinct values: the median's position is torch's for sure
        for dim, keepdim in ((0, False), (1, True), (-1, False)):
            c.run(f"median_dim/{dtype}/{dim}/{keepdim}", "median_dim",
                  lambda t, d=dim, k=keepdim: tuple(torch.median(t, d, k)), [x], {"dim": dim, "keepdim": keepdim})
        for q, dim, keepdim, mode in ((0.3, None, False, "linear"), (0.5, 1, True, "lower"), (0.8, 0, False, "higher"),
                                      (0.25, -1, False, "midpoint"), (0.6, 1, False, "nearest")):
            c.run(f"quantile/{dtype}/{q}/{dim}/{keepdim}/{mode}", "quantile",
                  lambda t, q=q, d=dim, k=keepdim, m=mode: torch.quantile(t, q, d, k, interpolation=m), [x],
                  {"q": q, "dim": dim, "keepdim": keepdim, "interpolation": mode})
        a, b = rng.tensor([4, 3], dtype), rng.tensor([2, 3], dtype)
        for p in (0.0, 1.0, 2.0, 3.0, 0.5, float("inf")):
            c.run(f"cdist/{dtype}/{p}", "cdist", lambda u, v, p=p: torch.cdist(u, v, p), [a, b], {"p": encode(p)})
        # the rest: median and nanmedian of all elements, the NaN-ignoring forms along a dim, repeat_interleave, meshgrid
        c.run(f"median/{dtype}", "median", torch.median, [x])
        xn = x.clone()
        xn[0, 1], xn[2, 3], xn[1, 0] = float("nan"), float("nan"), float("nan")
        c.run(f"nanmedian/{dtype}", "nanmedian", torch.nanmedian, [xn])
        for dim, keepdim in ((0, False), (1, True)):
            c.run(f"nanmedian_dim/{dtype}/{dim}/{keepdim}", "nanmedian_dim",
                  lambda t, d=dim, k=keepdim: tuple(torch.nanmedian(t, d, k)), [xn], {"dim": dim, "keepdim": keepdim})
        for q, dim, keepdim, mode in ((0.3, None, False, "linear"), (0.5, 1, True, "lower"), (0.7, 0, False, "nearest")):
            c.run(f"nanquantile/{dtype}/{q}/{dim}/{keepdim}/{mode}", "nanquantile",
                  lambda t, q=q, d=dim, k=keepdim, m=mode: torch.nanquantile(t, q, d, k, interpolation=m), [xn],
                  {"q": q, "dim": dim, "keepdim": keepdim, "interpolation": mode})
        for repeats, dim in ((2, None), (3, 1), (torch.tensor([1, 0, 2]), 0)):
            rid = repeats if isinstance(repeats, int) else "tensor"
            inputs = [x] if isinstance(repeats, int) else [x, repeats]
            c.run(f"repeat_interleave/{dtype}/{rid}/{dim}", "repeat_interleave",
                  (lambda t, r=repeats, d=dim: torch.repeat_interleave(t, r, d)) if isinstance(repeats, int) else
                  (lambda t, r, d=dim: torch.repeat_interleave(t, r, d)), inputs,
                  {"repeats": repeats if isinstance(repeats, int) else None, "dim": dim})
        u, v, w = rng.tensor([3], dtype), rng.tensor([2], dtype), rng.tensor([4], dtype)
        for indexing in ("ij", "xy"):
            # the gradient of grid 0 reaches input 0 only (the others get none, not zeros, in every library)
            c.run(f"meshgrid/{dtype}/2/{indexing}", "meshgrid", lambda p, q, i=indexing: tuple(torch.meshgrid(p, q, indexing=i)),
                  [u, v], {"indexing": indexing}, grad_inputs=[0])
            c.run(f"meshgrid/{dtype}/3/{indexing}", "meshgrid",
                  lambda p, q, r, i=indexing: tuple(torch.meshgrid(p, q, r, indexing=i)), [u, v, w], {"indexing": indexing},
                  grad_inputs=[0])
    c.error("repeat_interleave/error/negative", "repeat_interleave", [torch.zeros(3)], "CT_ERR_INVALID_ARGUMENT",
            {"repeats": -1, "dim": None})
    c.error("median_dim/error/empty", "median_dim", [torch.zeros(2, 0)], "CT_ERR_INDEX", {"dim": 1, "keepdim": False})
    c.error("quantile/error/range", "quantile", [torch.zeros(3)], "CT_ERR_INVALID_ARGUMENT",
            {"q": 1.5, "dim": None, "keepdim": False, "interpolation": "linear"})
    c.error("cdist/error/columns", "cdist", [torch.zeros(2, 3), torch.zeros(2, 2)], "CT_ERR_SHAPE", {"p": 2.0})


FREQ_NOTE = ("scale_grad_by_freq divides each row's gradient by the row's count in the indices, as documented and as "
             "F.embedding does; torch 1.13's CPU embedding_bag scales some rows by another row's count, so these "
             "expectations are built from F.embedding and a per-bag sum or mean")


def documented_bag(idx, w, offsets, mode, padding_idx, scale_grad_by_freq):
    """embedding_bag (sum or mean) from F.embedding's rows: the documented scale_grad_by_freq (FREQ_NOTE)."""
    e = torch.nn.functional.embedding(idx, w, padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq)
    starts = offsets.tolist() + [len(idx)]
    bags = []
    for b in range(len(offsets)):
        keep = [i for i in range(starts[b], starts[b + 1]) if padding_idx is None or int(idx[i]) != padding_idx]
        total = e[keep].sum(0) if keep else e.new_zeros(e.shape[1])
        bags.append(total / len(keep) if mode == "mean" and keep else total)
    return torch.stack(bags)


def embeddings(c):
    """embedding's options (padding_idx, scale_grad_by_freq), embedding_renorm_ (the output is the renormalised
    clone of input 0) and embedding_bag in every mode, with offsets or 2-D bags, padding, per-sample weights."""
    F = torch.nn.functional
    rng = Rng(77)
    idx = torch.tensor([0, 2, 4, 6, 1, 2, 2, 3, 6])
    for dtype in ("float32", "float64"):
        w = rng.tensor([7, 4], dtype)
        for pad in (None, 2, -1):
            for freq in (False, True):
                a = {"padding_idx": pad, "scale_grad_by_freq": freq}
                c.run(f"embedding_ex/{dtype}/pad{pad}/freq{freq}", "embedding_ex",
                      lambda t, i, a=a: F.embedding(i, t, padding_idx=a["padding_idx"],
                                                    scale_grad_by_freq=a["scale_grad_by_freq"]),
                      [w, idx.reshape(3, 3)], a)
        for norm_type in (2.0, 1.0):
            a = {"max_norm": 1.5, "norm_type": norm_type}
            c.run(f"embedding_renorm_/{dtype}/{norm_type}", "embedding_renorm_",
                  lambda t, i, a=a: torch.embedding_renorm_(t.detach().clone(), i, a["max_norm"], a["norm_type"]),
                  [w * 2, idx], a, differentiable=False)
        offsets = torch.tensor([0, 3, 3, 5])
        for mode in ("sum", "mean", "max"):
            for pad in (None, 2):
                for freq in (False, True) if mode != "max" else (False,):  # torch refuses max with freq scaling
                    a = {"mode": mode, "padding_idx": pad, "scale_grad_by_freq": freq, "include_last_offset": False}
                    c.run(f"embedding_bag/{dtype}/{mode}/pad{pad}/freq{freq}", "embedding_bag",
                          lambda t, i, o, a=a: (documented_bag if a["scale_grad_by_freq"] else F.embedding_bag)(
                              i, t, o, mode=a["mode"], padding_idx=a["padding_idx"],
                              scale_grad_by_freq=a["scale_grad_by_freq"]),
                          [w, idx, offsets], a, note=FREQ_NOTE if freq else None)
            a = {"mode": mode, "padding_idx": None, "scale_grad_by_freq": False, "include_last_offset": False}
            c.run(f"embedding_bag/{dtype}/{mode}/2d", "embedding_bag",
                  lambda t, i, a=a: F.embedding_bag(i, t, mode=a["mode"]), [w, idx[:8].reshape(2, 4)], a)
        a = {"mode": "mean", "padding_idx": None, "scale_grad_by_freq": False, "include_last_offset": True}
        c.run(f"embedding_bag/{dtype}/include_last_offset", "embedding_bag",
              lambda t, i, o: F.embedding_bag(i, t, o, mode="mean", include_last_offset=True),
              [w, idx, torch.tensor([0, 3, 3, 5, 9])], a)
        a = {"mode": "sum", "padding_idx": None, "scale_grad_by_freq": False, "include_last_offset": False}
        c.run(f"embedding_bag/{dtype}/per_sample_weights", "embedding_bag",
              lambda t, i, o, p: F.embedding_bag(i, t, o, mode="sum", per_sample_weights=p),
              [w, idx, offsets, rng.tensor([9], dtype, 0.5, 1.5)], a)
    a = {"mode": "sum", "padding_idx": None, "scale_grad_by_freq": False, "include_last_offset": False}
    c.error("embedding_bag/error/index", "embedding_bag", [torch.zeros(7, 4), torch.tensor([7]), torch.tensor([0])],
            "CT_ERR_INDEX", a)
    c.error("embedding_bag/error/offsets", "embedding_bag", [torch.zeros(7, 4), idx, torch.tensor([1, 3])],
            "CT_ERR_INVALID_ARGUMENT", a)
    c.error("embedding_bag/error/max_freq", "embedding_bag", [torch.zeros(7, 4), idx, torch.tensor([0, 3])],
            "CT_ERR_INVALID_ARGUMENT", dict(a, mode="max", scale_grad_by_freq=True))
    c.error("embedding_ex/error/padding", "embedding_ex", [torch.zeros(7, 4), idx], "CT_ERR_INDEX",
            {"padding_idx": 7, "scale_grad_by_freq": False})


def resample(c):
    """interpolate in every mode over 1-3 spatial dims: to a size, by factors (non-integer, downsampling, mixed) and
    by recomputed factors, with and without align_corners. The factors avoid same-size and doubled axes, where
    torch 1.13's nearest and bicubic backwards copy the gradient whatever the factor (its forwards do not)."""
    F = torch.nn.functional
    rng = Rng(91)
    modes = [("nearest", (1, 2, 3)), ("nearest-exact", (1, 3)), ("area", (2,)), ("linear", (1,)),
             ("bilinear", (2,)), ("trilinear", (3,)), ("bicubic", (2,))]
    for dtype in ("float32", "float64"):
        xs = {1: rng.tensor([2, 2, 5], dtype), 2: rng.tensor([1, 2, 4, 5], dtype), 3: rng.tensor([1, 1, 3, 4, 2], dtype)}
        for mode, ks in modes:
            for k in ks:
                for align in ([None] if mode in ("nearest", "nearest-exact", "area") else [False, True]):
                    for size, factor, recompute in (([7, 3, 5][:k], None, False), (None, [1.7, 0.6, 2.5][:k], False),
                                                    (None, [0.7, 1.3, 1.4][:k], True)):
                        a = {"mode": mode, "size": size, "scale_factor": factor, "align_corners": align,
                             "recompute_scale_factor": recompute}
                        how = "size%s" % size if size else "scale%s%s" % (factor, "/recompute" if recompute else "")
                        c.run(f"interpolate/{dtype}/{mode}/{k}d/align{align}/{how}", "interpolate",
                              lambda t, a=a: F.interpolate(t, a["size"], a["scale_factor"], a["mode"],
                                                           a["align_corners"], a["recompute_scale_factor"] or None),
                              [xs[k]], a)
    a = {"mode": "nearest", "size": [4], "scale_factor": None, "align_corners": None, "recompute_scale_factor": False}
    x = torch.zeros(1, 2, 5)
    # (size and scale_factor both given: Rust's Resize cannot say it; test_interpolate.cpp checks that error)
    c.error("interpolate/error/zero_size", "interpolate", [x], "CT_ERR_SHAPE", dict(a, size=[0]))
    c.error("interpolate/error/align_corners_nearest", "interpolate", [x], "CT_ERR_INVALID_ARGUMENT",
            dict(a, align_corners=True))
    c.error("interpolate/error/empty_output", "interpolate", [x], "CT_ERR_SHAPE", dict(a, size=None, scale_factor=[0.1]))
def norms(c):
    """layer_norm, group_norm and batch_norm (training by the batch, eval by running statistics) with and without
    weight / bias. Inputs: x, then weight and bias (when affine), then running_mean and running_var (batch_norm,
    when given; no gradients). The running-statistic updates are checked by each binding's own tests."""
    F = torch.nn.functional
    rng = Rng(91)
    for dtype in FLOATS:
        x = rng.tensor([3, 4, 5], dtype, -3.0, 3.0)
        w, b = rng.tensor([5], dtype, 0.5, 1.5), rng.tensor([5], dtype)
        c.run(f"layer_norm/{dtype}/affine", "layer_norm", lambda t, w, b: F.layer_norm(t, [5], w, b, 1e-5), [x, w, b],
              {"normalized_shape": [5], "eps": 1e-5})
        c.run(f"layer_norm/{dtype}/two_dims", "layer_norm", lambda t: F.layer_norm(t, [4, 5], eps=1e-3), [x],
              {"normalized_shape": [4, 5], "eps": 1e-3})
        wc, bc = rng.tensor([4], dtype, 0.5, 1.5), rng.tensor([4], dtype)
        for groups in (1, 2, 4):
            c.run(f"group_norm/{dtype}/{groups}", "group_norm", lambda t, w, b, g=groups: F.group_norm(t, g, w, b, 1e-5),
                  [x, wc, bc], {"num_groups": groups, "eps": 1e-5})
        c.run(f"group_norm/{dtype}/plain", "group_norm", lambda t: F.group_norm(t, 2), [x.reshape(3, 4, 5, 1)],
              {"num_groups": 2, "eps": 1e-5})
        rm, rv = rng.tensor([4], dtype), rng.tensor([4], dtype, 0.5, 2.0)
        for training in (True, False):
            a = {"training": training, "momentum": 0.1, "eps": 1e-5}
            c.run(f"batch_norm/{dtype}/running/training{int(training)}", "batch_norm",
                  lambda t, w, b, m, v, tr=training: F.batch_norm(t, m.clone(), v.clone(), w, b, tr, 0.1, 1e-5),
                  [x, wc, bc, rm, rv], a, grad_inputs=[0, 1, 2])
        c.run(f"batch_norm/{dtype}/batch_stats", "batch_norm", lambda t: F.batch_norm(t, None, None, training=True),
              [x.reshape(6, 2, 5)], {"training": True, "momentum": 0.1, "eps": 1e-5})
        c.run(f"batch_norm/{dtype}/2d", "batch_norm", lambda t, w, b: F.batch_norm(t, None, None, w, b, True),
              [x.reshape(12, 5), w, b], {"training": True, "momentum": 0.1, "eps": 1e-5})
    x = torch.zeros(2, 4, 3)
    c.error("layer_norm/error/shape", "layer_norm", [x], "CT_ERR_SHAPE", {"normalized_shape": [4], "eps": 1e-5})
    c.error("group_norm/error/dtype", "group_norm", [x.double(), torch.ones(4), torch.zeros(4)], "CT_ERR_DTYPE",
            {"num_groups": 2, "eps": 1e-5})
    c.error("batch_norm/error/one_value", "batch_norm", [torch.zeros(1, 4)], "CT_ERR_INVALID_ARGUMENT",
            {"training": True, "momentum": 0.1, "eps": 1e-5})


HALF_NOTE = ("torch 1.13 has no CPU kernel for this op in this dtype: expected values are torch's float32 result on "
             "the same half values, rounded to the dtype (how ctensor computes it, docs/dtypes.md)")


ACCUMULATE_NOTE = ("torch 1.13's CPU kernel accumulates in the half dtype (a bfloat16 matmul misses the correctly "
                   "rounded value by several units); issue 15 accumulates in float32, so the expected values are "
                   "torch's float32 result on the same half values, rounded to the dtype")


def in_half(fn, dtype, inputs, accumulate=False):
    """(fn, note): fn itself where torch 1.13 runs it in dtype on the CPU (forward and backward), else fn on float32
    copies of the half inputs with its floating outputs rounded back to dtype (HALF_NOTE; ACCUMULATE_NOTE when
    accumulate says torch's half kernel sums in half)."""
    half = getattr(torch, dtype)
    try:
        if accumulate:
            raise RuntimeError("sums in the half dtype")
        leaves = [x.clone().requires_grad_(x.dtype == half) if isinstance(x, torch.Tensor) else x for x in inputs]
        out = fn(*leaves)
        first = out[0] if isinstance(out, (tuple, list)) else out
        if first.requires_grad:
            first.backward(torch.ones_like(first))
        return fn, None
    except RuntimeError:
        pass

    def via_float32(*xs):
        out = fn(*[x.float() if isinstance(x, torch.Tensor) and x.dtype == half else x for x in xs])
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        outs = [o.to(half) if o.is_floating_point() else o for o in outs]
        return tuple(outs) if isinstance(out, (tuple, list)) else outs[0]
    return via_float32, ACCUMULATE_NOTE if accumulate else HALF_NOTE


def half_cases(c):
    """Issue 15: float16 and bfloat16 inputs (elementwise, reductions, matmul, nn ops, losses, casts). Expected
    values are torch's in that dtype where torch 1.13 has the CPU kernel, else its float32 result rounded (in_half).
    Runners compare them with half tolerances (README: float16 1e-3, bfloat16 1e-2 relative)."""
    F = torch.nn.functional
    rng = Rng(151)
    for dtype in HALVES:
        def run(name, op, fn, inputs, args=None, accumulate=False, **kw):
            f, note = in_half(fn, dtype, inputs, accumulate)
            c.run(f"{name}/{dtype}", op, f, inputs, args, note=note, **kw)
        x = rng.tensor([3, 4], dtype)
        y = rng.tensor([3, 4], dtype)
        for op, fn in (("exp", torch.exp), ("sigmoid", torch.sigmoid), ("tanh", torch.tanh), ("relu", torch.relu),
                       ("gelu", F.gelu), ("neg", torch.neg)):
            run(op, op, fn, [x])
        run("sqrt", "sqrt", torch.sqrt, [rng.tensor([3, 4], dtype, 0.1, 4.0)])
        run("add", "add", lambda a, b: torch.add(a, b, alpha=2.0), [x, rng.tensor([4], dtype)], {"alpha": 2.0})
        run("add/scalar", "add", torch.add, [x, 1.5], {"alpha": 1.0})
        run("mul", "mul", torch.mul, [x, y])
        run("div", "div", torch.div, [x, rng.tensor([3, 4], dtype, 0.5, 2.0)])
        run("maximum", "maximum", torch.maximum, [x, y])
        run("lt", "lt", torch.lt, [x, y], differentiable=False)
        run("where", "where", torch.where, [x > 0, x, y])
        run("clamp", "clamp", lambda t: torch.clamp(t, -0.5, 0.5), [x], {"min": -0.5, "max": 0.5})
        run("pow_scalar", "pow_scalar", lambda t: torch.pow(t, 2.0), [x], {"exponent": 2.0})
        r = rng.tensor([2, 3, 4], dtype)
        run("sum/all", "sum", torch.sum, [r], {"dims": None, "keepdim": False})
        run("sum/[1]", "sum", lambda t: torch.sum(t, [1], keepdim=True), [r], {"dims": [1], "keepdim": True})
        run("mean/[0, 2]", "mean", lambda t: torch.mean(t, [0, 2]), [r], {"dims": [0, 2], "keepdim": False})
        run("logsumexp/[2]", "logsumexp", lambda t: torch.logsumexp(t, [2]), [r], {"dims": [2], "keepdim": False})
        run("var/[1]", "var", lambda t: torch.var(t, [1], correction=1), [r], {"dims": [1], "correction": 1,
                                                                                 "keepdim": False})
        run("max_dim", "max_dim", lambda t: torch.max(t, 1), [x], {"dim": 1, "keepdim": False})
        run("argmax", "argmax", lambda t: torch.argmax(t, 0), [x], {"dim": 0, "keepdim": False},
            differentiable=False)
        run("cumsum", "cumsum", lambda t: torch.cumsum(t, 1), [x], {"dim": 1})
        run("sort", "sort", lambda t: torch.sort(t, 1), [x], {"dim": 1, "descending": False})
        run("matmul", "matmul", torch.matmul, [rng.tensor([3, 8], dtype), rng.tensor([8, 2], dtype)], accumulate=True)
        run("linear", "linear", F.linear, [rng.tensor([2, 8], dtype), rng.tensor([3, 8], dtype), rng.tensor([3], dtype)],
            accumulate=True)
        run("softmax", "softmax", lambda t: torch.softmax(t, 1), [x], {"dim": 1})
        run("log_softmax", "log_softmax", lambda t: torch.log_softmax(t, 1), [x], {"dim": 1})
        run("layer_norm", "layer_norm", lambda t, w, b: F.layer_norm(t, [4], w, b, 1e-5),
            [x, rng.tensor([4], dtype, 0.5, 1.5), rng.tensor([4], dtype)], {"normalized_shape": [4], "eps": 1e-5})
        img = rng.tensor([1, 2, 4, 4], dtype)
        # accumulate: without AVX-512 torch's bfloat16 convolution sums in bfloat16 (up to 60 units off in the last
        # place); with it, oneDNN sums in float32. The float32 result rounded is the same on every CPU.
        run("conv2d", "conv2d", lambda t, w, b: F.conv2d(t, w, b, 1, 1),
            [img, rng.tensor([3, 2, 3, 3], dtype, -0.5, 0.5), rng.tensor([3], dtype)],
            {"stride": [1, 1], "padding": [1, 1], "dilation": [1, 1], "groups": 1}, accumulate=True)
        for op, fn in (("max_pool2d", F.max_pool2d), ("avg_pool2d", F.avg_pool2d)):
            run(op, op, lambda t, fn=fn: fn(t, 2, 2, 0), [img], {"kernel": [2, 2], "stride": [2, 2], "padding": [0, 0]})
        target = torch.tensor([1, 0, 3])
        run("cross_entropy", "cross_entropy", lambda t, k: F.cross_entropy(t, k), [x, target],
            {"reduction": "mean", "ignore_index": -100})
        run("mse_loss", "mse_loss", F.mse_loss, [x, y], {"reduction": "mean"})
        run("l1_loss", "l1_loss", lambda a, b: F.l1_loss(a, b, reduction="sum"), [x, y], {"reduction": "sum"})
        run("smooth_l1_loss", "smooth_l1_loss", lambda a, b: F.smooth_l1_loss(a, b, beta=1.0), [x, y],
            {"reduction": "mean", "beta": 1.0})
        run("binary_cross_entropy_with_logits", "binary_cross_entropy_with_logits",
            lambda a, b: F.binary_cross_entropy_with_logits(a, b), [x, rng.tensor([3, 4], dtype, 0.0, 1.0)],
            {"reduction": "mean"})
        run("gather", "gather", lambda t, i: torch.gather(t, 1, i), [x, torch.tensor([[0, 3], [1, 1], [2, 0]])],
            {"dim": 1})
        run("embedding", "embedding", lambda w, i: F.embedding(i, w), [rng.tensor([5, 3], dtype),
                                                                      torch.tensor([[0, 4], [2, 2]])])
        other = "bfloat16" if dtype == "float16" else "float16"
        for src, dst in (("float32", dtype), (dtype, "float32"), (dtype, other), ("float64", dtype)):
            t = rng.tensor([2, 3], src, -300.0, 300.0)
            c.run(f"to_dtype/{src}/{dst}", "to_dtype", lambda t, d=dst: t.to(ALL_DTYPES[d]), [t], {"dtype": dst})


def complex_cases(c):
    """Issue 15: complex64 / complex128 values and Wirtinger gradients as torch 1.13 gives them (grad_output and
    gradients of complex tensors are complex: dL/dRe + i dL/dIm): arithmetic between complex tensors, with real
    tensors and with complex numbers (`complex_scalar`, a language's complex number, promoted by category only),
    == / != and the refused ordering, the complex unary ops, reductions and scans, matmul, the parts and views
    (real, imag, view_as_real / view_as_complex, complex, polar, conj, angle, abs)."""
    rng = Rng(1515)
    for dt in COMPLEXES:
        real_dt = "float32" if dt == "complex64" else "float64"
        x = rng.tensor([2, 3], dt, -1.5, 1.5)
        y = rng.tensor([3], dt, 0.5, 1.5)  # away from 0: the divisor and pow's base
        for op, fn in (("add", lambda a, b: torch.add(a, b, alpha=2.0)), ("sub", lambda a, b: torch.sub(a, b, alpha=0.5))):
            c.run(f"{op}/{dt}", op, fn, [x, y], {"alpha": 2.0 if op == "add" else 0.5})
        c.run(f"mul/{dt}", "mul", torch.mul, [x, y])
        c.run(f"div/{dt}", "div", torch.div, [x, y])
        c.run(f"pow/{dt}", "pow", torch.pow, [y, x])
        c.run(f"mul/{dt}/{real_dt}", "mul", torch.mul, [x, rng.tensor([3], real_dt)])
        c.run(f"add/{dt}/float64", "add", torch.add, [x, rng.tensor([3], "float64")], {"alpha": 1.0})
        c.run(f"eq/{dt}", "eq", torch.eq, [x, torch.where(torch.tensor([True, False, True]), x[0], y)],
              differentiable=False)
        c.run(f"ne/{dt}", "ne", torch.ne, [x, x[1]], differentiable=False)
        for s_ in (0.5 + 2j, -1j):
            c.run(f"mul/{dt}/complex_scalar{s_}", "mul", torch.mul, [x, s_])
            c.run(f"div/complex_scalar{s_}/{dt}", "div", torch.div, [s_, y])
        c.run(f"add/{dt}/complex_scalar", "add", torch.add, [x, 1 - 1j], {"alpha": 1.0})
        c.run(f"sub/complex_scalar/{dt}", "sub", torch.sub, [0.25j, x], {"alpha": 1.0})
        c.run(f"pow/{dt}/complex_scalar", "pow", torch.pow, [y, 0.5 + 0.5j])
        c.run(f"eq/{dt}/complex_scalar", "eq", torch.eq, [torch.tensor([1 + 1j, 1, 1j], dtype=ALL_DTYPES[dt]), 1 + 1j],
              differentiable=False)
        c.error(f"lt/{dt}/complex_scalar", "lt", [x, 1j], "CT_ERR_NOT_SUPPORTED")
        c.error(f"lt/{dt}", "lt", [x, y], "CT_ERR_NOT_SUPPORTED")
        for op in ("abs", "angle", "conj", "real", "imag", "neg", "exp", "log", "sqrt", "sin", "cos", "tan", "tanh",
                   "sigmoid", "rsqrt", "reciprocal"):
            z = y.reshape(1, 3).expand(2, 3) * x if op in ("log", "rsqrt", "reciprocal") else x  # away from 0
            fn = {"real": torch.real, "imag": torch.imag, "conj": lambda t: t.conj().resolve_conj()}.get(
                op, getattr(torch, op))
            c.run(f"{op}/{dt}", op, fn, [z.detach()])
        r = rng.tensor([2, 3, 2], dt, -1.0, 1.0)
        c.run(f"sum/{dt}/all", "sum", torch.sum, [r], {"dims": None, "keepdim": False})
        c.run(f"sum/{dt}/[0, 2]", "sum", lambda t: torch.sum(t, [0, 2], keepdim=True), [r],
              {"dims": [0, 2], "keepdim": True})
        c.run(f"mean/{dt}/[1]", "mean", lambda t: torch.mean(t, [1]), [r], {"dims": [1], "keepdim": False})
        c.run(f"prod/{dt}/[1]", "prod", lambda t: torch.prod(t, 1), [r], {"dims": [1], "keepdim": False})
        c.run(f"cumsum/{dt}", "cumsum", lambda t: torch.cumsum(t, 1), [r], {"dim": 1})
        c.run(f"cumprod/{dt}", "cumprod", lambda t: torch.cumprod(t, 1), [r], {"dim": 1})
        c.run(f"matmul/{dt}/2d", "matmul", torch.matmul, [x, rng.tensor([3, 2], dt)])
        c.run(f"matmul/{dt}/batched", "matmul", torch.matmul, [rng.tensor([2, 2, 3], dt), rng.tensor([2, 3, 2], dt)])
        c.run(f"matmul/{dt}/matrix_vector", "matmul", torch.matmul, [x, y])
        c.run(f"view_as_real/{dt}", "view_as_real", torch.view_as_real, [x])
        c.run(f"view_as_complex/{real_dt}", "view_as_complex", torch.view_as_complex,
              [rng.tensor([3, 2], real_dt)])
        c.run(f"complex/{real_dt}", "complex", torch.complex, [rng.tensor([2, 3], real_dt), rng.tensor([3], real_dt)])
        c.run(f"polar/{real_dt}", "polar", torch.polar,
              [rng.tensor([2, 3], real_dt, 0.5, 2.0), rng.tensor([2, 3], real_dt, -3.0, 3.0)])
    # real tensors beside a complex number: the result dtype by category (float64 -> complex128, else complex64)
    for dtype in ("float32", "float64", "int64", "bool"):
        x = rng.tensor([2, 2], dtype)
        c.run(f"mul/{dtype}/complex_scalar", "mul", torch.mul, [x, 0.5 - 1.5j])
        c.run(f"add/complex_scalar/{dtype}", "add", torch.add, [2j, x], {"alpha": 1.0})
        c.run(f"ne/{dtype}/complex_scalar", "ne", torch.ne, [x, 1 + 0j], differentiable=False)


def more_ops(c):
    """The last reductions and products (issue 14): logcumsumexp, aminmax, var_mean / std_mean (gradients of the
    first output, as every case), kron, tensordot (dim lists; the int form is each binding's own) and inner."""
    for dtype in FLOATS:
        for shape, dim in (([5], 0), ([3, 4], 1), ([3, 4], -2), ([2, 3, 4], 1)):
            x = Rng(len(c.cases)).tensor(shape, dtype, -3.0, 3.0)
            c.run(f"logcumsumexp/{dtype}/{shape}/{dim}", "logcumsumexp", lambda t, d=dim: torch.logcumsumexp(t, d), [x],
                  {"dim": dim})
    x = torch.tensor([float("-inf"), -1000.0, 0.0, 1000.0, float("inf")], dtype=torch.float64)
    c.run("logcumsumexp/extremes", "logcumsumexp", lambda t: torch.logcumsumexp(t, 0), [x], {"dim": 0},
          differentiable=False)
    c.error("logcumsumexp/error/int64", "logcumsumexp", [torch.tensor([1, 2])], "CT_ERR_DTYPE", {"dim": 0})
    c.error("logcumsumexp/error/dim", "logcumsumexp", [torch.zeros(2, 3)], "CT_ERR_INDEX", {"dim": 2})
    for dtype in ("float32", "float64", "int64"):
        x = Rng(len(c.cases)).tensor([3, 5], dtype)
        for dim, keepdim in ((None, False), (0, False), (1, True), (-1, False)):
            c.run(f"aminmax/{dtype}/{dim}/{keepdim}", "aminmax",
                  lambda t, d=dim, k=keepdim: tuple(torch.aminmax(t, dim=d, keepdim=k)), [x],
                  {"dim": dim, "keepdim": keepdim}, differentiable=False)
    c.error("aminmax/error/empty", "aminmax", [torch.zeros(0)], "CT_ERR_INDEX", {"dim": None, "keepdim": False})
    for op, fn in (("var_mean", torch.var_mean), ("std_mean", torch.std_mean)):
        for dtype in FLOATS:
            for dims in ([1], [0, 2], None):
                for correction in (0, 1):
                    for keepdim in (False, True):
                        if dims is None and keepdim:
                            continue
                        x = Rng(len(c.cases)).tensor([2, 3, 4], dtype)
                        d = dims if dims is not None else [0, 1, 2]
                        c.run(f"{op}/{dtype}/{dims}/c{correction}/keepdim{int(keepdim)}", op,
                              lambda t, fn=fn, d=d, cc=correction, k=keepdim: tuple(fn(t, d, unbiased=bool(cc), keepdim=k)),
                              [x], {"dims": dims, "correction": correction, "keepdim": keepdim})
        c.error(f"{op}/error/int64", op, [torch.tensor([1, 2])], "CT_ERR_DTYPE",
                {"dims": None, "correction": 1, "keepdim": False})
    for dtype in FLOATS + ("int64",):
        rng = Rng(len(c.cases))
        for sa, sb in (([2, 3], [2, 2]), ([2, 2], [3]), ([], [3])):
            c.run(f"kron/{dtype}/{sa}_{sb}", "kron", torch.kron, [rng.tensor(sa, dtype), rng.tensor(sb, dtype)])
        a, b = rng.tensor([2, 3, 4], dtype), rng.tensor([4, 3, 5], dtype)
        for da, db in (([1, 2], [1, 0]), ([2], [0]), ([], []), ([-2], [-2])):
            c.run(f"tensordot/{dtype}/{da}_{db}", "tensordot", lambda u, v, da=da, db=db: torch.tensordot(u, v, (da, db)),
                  [a, b], {"dims_a": da, "dims_b": db})
        for sa, sb in (([2, 3], [4, 3]), ([3], [3]), ([], [2, 3])):
            c.run(f"inner/{dtype}/{sa}_{sb}", "inner", torch.inner, [rng.tensor(sa, dtype), rng.tensor(sb, dtype)])
    c.error("tensordot/error/size", "tensordot", [torch.zeros(2, 3), torch.zeros(2, 3)], "CT_ERR_SHAPE",
            {"dims_a": [1], "dims_b": [0]})
    c.error("tensordot/error/lengths", "tensordot", [torch.zeros(2, 3), torch.zeros(3, 2)], "CT_ERR_SHAPE",
            {"dims_a": [1], "dims_b": [0, 1]})
    c.error("inner/error/last_dim", "inner", [torch.zeros(2, 3), torch.zeros(3, 2)], "CT_ERR_SHAPE")


GROUPS = {"unary": unary, "binary": binary, "reduction": reductions, "views": views, "linalg_nn": linalg_nn,
          "indexing": indexing, "ordering": ordering, "nn": nn_ops, "creation": creation, "random": random_ops,
          "activations": activations, "losses": losses, "linalg": linalg, "attention": attention,
          "conv_nd": conv_nd, "recurrent": recurrent, "toolbox": toolbox, "embeddings": embeddings,
          "resample": resample,
          "norms": norms, "half": half_cases, "complex": complex_cases, "more_ops": more_ops}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
    os.makedirs(out, exist_ok=True)
    torch.set_default_dtype(torch.float32)
    torch.set_num_threads(1)  # float32 sums (conv2d, matmul) in one order, whatever OMP_NUM_THREADS the caller set
    total = 0
    for name, fill in GROUPS.items():
        c = Cases()
        fill(c)
        header = {"format": 1, "generator": "tests/conformance/generate.py", "torch": torch.__version__.split("+")[0]}
        with open(os.path.join(out, f"{name}.json"), "w") as f:
            json.dump(dict(header, cases=c.cases), f, indent=None, separators=(",", ":"))
            f.write("\n")
        with open(os.path.join(out, f"{name}.toml"), "w") as f:
            f.write(to_toml(header, c.cases))
        total += len(c.cases)
        print(f"{name}: {len(c.cases)} cases")
    print(f"{total} cases in {out}")


if __name__ == "__main__":
    main()
