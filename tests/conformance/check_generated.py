"""check_generated.py - the committed cases are what generate.py writes: regenerates them (cases/*.json and the
same cases as cases/*.toml) into a temporary folder with this machine's torch and compares them case by case.
Everything must be identical except floating-point numbers, which may differ in their last bits (rel 1e-9): torch's
float64 matmul/dot/conv go through OpenBLAS, whose kernels (and so rounding) depend on the CPU the generator runs
on. float16/bfloat16 values may differ by one unit in their last place: torch's CPU half kernels take different
vector paths on different CPUs (AVX-512 or AVX2), which round an intermediate differently (bfloat16 gelu gave
0.61328125 on one machine and 0.609375 on another). Fails naming the first differing case and value."""
import json
import math
import os
import subprocess
import sys
import tempfile
import tomllib

REL, ABS = 1e-9, 1e-12
# explicit mantissa bits and smallest subnormal exponent of the half dtypes
HALF_FORMATS = {"float16": (10, -24), "bfloat16": (7, -133)}


def within_half_ulp(a, b, dtype):
    """a and b (finite) are at most one unit in the last place of dtype apart."""
    mantissa, smallest = HALF_FORMATS[dtype]
    big = max(abs(a), abs(b))
    ulp = 2.0 ** max(math.floor(math.log2(big)) - mantissa, smallest) if big > 0 else 0.0
    return abs(a - b) <= ulp


def differs(a, b, path, half=None):
    """The first path (a string) where a and b differ beyond rounding, or None. half: the dtype of a half tensor's
    values being compared (one unit in its last place allowed)."""
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
            if a == b or (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=REL, abs_tol=ABS):
                return None
            if half and math.isfinite(a) and math.isfinite(b) and within_half_ulp(a, b, half):
                return None
        return f"{path}: {a!r} vs {b!r}"
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{path}: keys {sorted(a)} vs {sorted(b)}"
        dtype = a.get("dtype")
        for k in a:
            d = differs(a[k], b[k], f"{path}.{k}", dtype if k == "values" and dtype in HALF_FORMATS else half)
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = differs(x, y, f"{path}[{i}]", half)
            if d:
                return d
        return None
    return None if a == b and type(a) == type(b) else f"{path}: {a!r} vs {b!r}"


def load(path):
    with open(path, "rb") as f:
        return tomllib.load(f) if path.endswith(".toml") else json.load(f)


here = os.path.dirname(os.path.abspath(__file__))
with tempfile.TemporaryDirectory() as out:
    subprocess.run([sys.executable, os.path.join(here, "generate.py"), out], check=True, stdout=subprocess.DEVNULL)
    committed = sorted(f for f in os.listdir(os.path.join(here, "cases")) if f.endswith((".json", ".toml")))
    fresh = sorted(f for f in os.listdir(out) if f.endswith((".json", ".toml")))
    if committed != fresh:
        sys.exit(f"case files differ: committed {committed}, generated {fresh}")
    inexact = 0
    for name in committed:
        old_path, new_path = os.path.join(here, "cases", name), os.path.join(out, name)
        with open(old_path, "rb") as a, open(new_path, "rb") as b:
            if a.read() == b.read():
                continue
        inexact += 1
        old, new = load(old_path), load(new_path)
        old_cases, new_cases = old.pop("cases", []), new.pop("cases", [])
        d = differs(old, new, name)
        if d:
            sys.exit(f"{d}: differs from what generate.py writes now; rerun generate.py")
        if len(old_cases) != len(new_cases):
            sys.exit(f"{name}: {len(old_cases)} committed cases, {len(new_cases)} generated; rerun generate.py")
        for x, y in zip(old_cases, new_cases):
            d = differs(x, y, f"{name}: case {x.get('id')}")
            if d:
                sys.exit(f"{d}: differs from what generate.py writes now; rerun generate.py")
    print(f"{len(committed)} case files reproduced ({inexact} within rounding of floating-point values)")
