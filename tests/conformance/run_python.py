"""run_python.py - the Python runner of the conformance suite: every case of cases/*.json through ctensor's public
Python API (the calls a user writes, torch-style), compared with the expected dtype, shape and values (per-dtype
tolerances; NaN equals NaN) and, for differentiable cases, the input gradients after backward(grad_output); error
cases must raise the exception the binding maps the status to. Prints the failures and the closing line
"N passed, N failed"; exits 1 when any failed. Usage: python run_python.py [CASES_DIR]"""
import glob
import json
import math
import os
import sys

import ctensor as ct
import ctensor.nn.functional as F

DTYPES = {"float32": ct.float32, "float64": ct.float64, "int32": ct.int32, "int64": ct.int64, "uint8": ct.uint8,
          "bool": ct.bool}
NAMES = {v: k for k, v in DTYPES.items()}
TOLERANCE = {"float32": (1e-5, 1e-5), "float64": (1e-12, 1e-10)}  # (atol, rtol); exact for the others
ERRORS = {"CT_ERR_INVALID_ARGUMENT": ValueError, "CT_ERR_SHAPE": ValueError, "CT_ERR_DTYPE": TypeError,
          "CT_ERR_INDEX": IndexError, "CT_ERR_OUT_OF_MEMORY": MemoryError, "CT_ERR_NOT_SUPPORTED": NotImplementedError,
          "CT_ERR_IO": OSError}


def decode(v):
    return float(v) if isinstance(v, str) else v


def make(j):
    if "scalar" in j:
        return decode(j["scalar"])
    t = ct.tensor([decode(v) for v in j["values"]], dtype=DTYPES[j["dtype"]]).reshape(j["shape"])
    if j.get("requires_grad"):
        t.requires_grad_(True)
    return t


def reduce_call(fn, x, a):
    dims = a.get("dims")
    return fn(x) if dims is None else fn(x, dims, keepdim=a.get("keepdim", False))


def plain(fn):
    return lambda xs, a: fn(*xs)


def op_table():
    """op name -> f(inputs, args), each calling the public API as a user would."""
    t = {name: plain(getattr(ct, name)) for name in (
        "neg", "abs", "sign", "exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh",
        "sigmoid", "relu", "floor", "ceil", "round", "reciprocal", "logical_not", "mul", "div", "pow", "maximum",
        "minimum", "atan2", "remainder", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or",
        "logical_xor", "where", "max", "min")}
    t.update({
        "gelu": plain(F.gelu), "silu": plain(F.silu), "softplus": plain(F.softplus),
        "pow_scalar": lambda xs, a: ct.pow(xs[0], a["exponent"]),
        "clamp": lambda xs, a: ct.clamp(xs[0], a["min"], a["max"]),
        "add": lambda xs, a: ct.add(*xs, alpha=a.get("alpha", 1)),
        "sub": lambda xs, a: ct.sub(*xs, alpha=a.get("alpha", 1)),
        "sum": lambda xs, a: reduce_call(ct.sum, xs[0], a),
        "mean": lambda xs, a: reduce_call(ct.mean, xs[0], a),
        "prod": lambda xs, a: ct.prod(xs[0], a["dims"][0], keepdim=a["keepdim"]),
        "logsumexp": lambda xs, a: ct.logsumexp(xs[0], a["dims"], keepdim=a["keepdim"]),
        "var": lambda xs, a: ct.var(xs[0], a["dims"], correction=a["correction"], keepdim=a["keepdim"]),
        "std": lambda xs, a: ct.std(xs[0], a["dims"], correction=a["correction"], keepdim=a["keepdim"]),
        "norm": lambda xs, a: ct.norm(xs[0], a["p"], a["dims"], keepdim=a["keepdim"]),
        "all": lambda xs, a: ct.all(xs[0]) if a["dims"] is None else ct.all(xs[0], a["dims"][0]),
        "any": lambda xs, a: ct.any(xs[0]) if a["dims"] is None else ct.any(xs[0], a["dims"][0]),
        "max_dim": lambda xs, a: tuple(ct.max(xs[0], a["dim"], keepdim=a["keepdim"])),
        "min_dim": lambda xs, a: tuple(ct.min(xs[0], a["dim"], keepdim=a["keepdim"])),
        "argmax": lambda xs, a: ct.argmax(xs[0], a["dim"], keepdim=a["keepdim"]),
        "argmin": lambda xs, a: ct.argmin(xs[0], a["dim"], keepdim=a["keepdim"]),
        "argmax_all": plain(ct.argmax), "argmin_all": plain(ct.argmin),
        "cumsum": lambda xs, a: ct.cumsum(xs[0], a["dim"]),
        "cumprod": lambda xs, a: ct.cumprod(xs[0], a["dim"]),
    })
    return t


def mismatch(what, got, want):
    """None when tensor got matches the expected JSON want, else a description."""
    name = NAMES.get(got.dtype, str(got.dtype))
    if name != want["dtype"]:
        return f"{what}: dtype {name}, expected {want['dtype']}"
    if list(got.shape) != want["shape"]:
        return f"{what}: shape {list(got.shape)}, expected {want['shape']}"
    values = got.detach().reshape(-1).tolist()
    atol, rtol = TOLERANCE.get(name, (0, 0))
    for i, (g, w) in enumerate(zip(values, (decode(v) for v in want["values"]))):
        g, w = float(g), float(w)
        if math.isnan(w) and math.isnan(g):
            continue
        if not (g == w or abs(g - w) <= atol + rtol * abs(w)):
            return f"{what}: element {i} is {g!r}, expected {w!r}"
    return None


def run_case(case, table):
    fn = table.get(case["op"])
    if fn is None:
        return f"op {case['op']} is not exposed"
    inputs = [make(j) for j in case["inputs"]]
    if "error" in case:
        kind = ERRORS.get(case["error"], RuntimeError)
        try:
            fn(inputs, case["args"])
        except kind:
            return None
        except Exception as e:  # noqa: BLE001 - any other exception is the failure being reported
            return f"raised {type(e).__name__}: {e}; expected {kind.__name__} ({case['error']})"
        return f"returned; expected {case['error']}"
    out = fn(inputs, case["args"])
    outs = list(out) if isinstance(out, tuple) else [out]
    expect = case["expect"]
    if len(outs) != len(expect["outputs"]):
        return f"{len(outs)} outputs, expected {len(expect['outputs'])}"
    for k, (o, w) in enumerate(zip(outs, expect["outputs"])):
        problem = mismatch(f"output {k}", o, w)
        if problem:
            return problem
    if "grads" in expect:
        outs[0].backward(make(expect["grad_output"]))
        for k, (x, w) in enumerate(zip(inputs, expect["grads"])):
            if w is None:
                continue
            if x.grad is None:
                return f"input {k} got no gradient"
            problem = mismatch(f"gradient of input {k}", x.grad, w)
            if problem:
                return problem
    return None


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cases_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "cases")
    table = op_table()
    passed, failures = 0, []
    for path in sorted(glob.glob(os.path.join(cases_dir, "*.json"))):
        with open(path) as f:
            cases = json.load(f)["cases"]
        for case in cases:
            try:
                problem = run_case(case, table)
            except Exception as e:  # noqa: BLE001 - an unexpected exception fails the case
                problem = f"raised {type(e).__name__}: {e}"
            if problem:
                failures.append(f"{case['id']}: {problem}")
            else:
                passed += 1
    for line in failures[:50]:
        print("FAIL", line)
    if len(failures) > 50:
        print(f"... and {len(failures) - 50} more")
    print(f"{passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
