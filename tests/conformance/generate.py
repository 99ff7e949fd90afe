"""generate.py - writes the conformance cases (cases/*.json) with expected values computed by PyTorch 1.13
(Debian's python3-torch), independently of ctensor. Each case: an op of abi/ops.tsv, its inputs (dtype, shape,
values, requires_grad) and arguments, and either the expected outputs (dtype, shape, values) with, for
differentiable ops, the expected input gradients for a given grad_output, or the expected error (a ct_status
name). Non-finite values are written as the strings "nan", "inf", "-inf". Deterministic: the same torch gives the
same files, which test_generator_reproduces.py checks.
Usage: python3 generate.py [OUT_DIR]   (default: cases/ beside this file)"""
import json
import math
import os
import sys
import zlib

import torch

DTYPES = {"float32": torch.float32, "float64": torch.float64, "int32": torch.int32, "int64": torch.int64,
          "uint8": torch.uint8, "bool": torch.bool}
NAMES = {v: k for k, v in DTYPES.items()}
FLOATS = ("float32", "float64")


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
    j = {"dtype": NAMES[t.dtype], "shape": list(t.shape), "values": [encode(v) for v in t.reshape(-1).tolist()]}
    if requires_grad:
        j["requires_grad"] = True
    return j


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
        elif dtype in FLOATS:
            vals = [round(lo + (hi - lo) * self.next(), 3) for _ in range(n)]
        else:
            lo_i, hi_i = (0, 9) if dtype == "uint8" else (-9, 9)
            vals = [int(lo_i + (hi_i - lo_i + 1) * self.next()) for _ in range(n)]
        return torch.tensor(vals, dtype=DTYPES[dtype]).reshape(shape)


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
            if isinstance(x, (int, float, bool)):
                case["inputs"].append({"scalar": encode(x)})
                leaves.append(torch.tensor(x))  # a 0-d tensor promotes like a Python scalar (by category only)
                continue
            wants = differentiable and x.dtype in (torch.float32, torch.float64) and \
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
            case["inputs"].append({"scalar": encode(x)} if isinstance(x, (int, float, bool)) else tensor_json(x))
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
NONDIFF = {"sign", "floor", "ceil", "round", "logical_not", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
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


BINARY = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div, "pow": torch.pow,
    "maximum": torch.maximum, "minimum": torch.minimum, "atan2": torch.atan2, "remainder": torch.remainder,
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
                if op in ("div", "remainder") and dtype == "int64":
                    b = torch.where(b == 0, torch.ones_like(b), b)
                if op in ("div", "remainder") and dtype in FLOATS:
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


GROUPS = {"unary": unary, "binary": binary, "reduction": reductions}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
    os.makedirs(out, exist_ok=True)
    torch.set_default_dtype(torch.float32)
    total = 0
    for name, fill in GROUPS.items():
        c = Cases()
        fill(c)
        with open(os.path.join(out, f"{name}.json"), "w") as f:
            json.dump({"format": 1, "generator": "tests/conformance/generate.py", "torch": torch.__version__.split("+")[0],
                       "cases": c.cases}, f, indent=None, separators=(",", ":"))
            f.write("\n")
        total += len(c.cases)
        print(f"{name}: {len(c.cases)} cases")
    print(f"{total} cases in {out}")


if __name__ == "__main__":
    main()
