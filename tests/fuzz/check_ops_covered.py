#!/usr/bin/env python3
"""check_ops_covered.py - fails when a C function of abi/ops.tsv is called by none of the fuzz targets
(tests/fuzz/*.cpp), so a new op cannot be added without being fuzzed. Usage: check_ops_covered.py ROOT"""
import glob
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
ops = [line.split("\t")[1] for line in open(os.path.join(root, "abi", "ops.tsv"))
       if line.strip() and not line.startswith("#")]
source = "".join(open(f).read() for f in glob.glob(os.path.join(root, "tests", "fuzz", "*.cpp")))
missing = [op for op in ops if not re.search(r"\b%s\b" % re.escape(op), source)]
if missing:
    print("ops of abi/ops.tsv no fuzz target calls (add them to tests/fuzz/fuzz_calls.cpp):", " ".join(missing))
    sys.exit(1)
print("all %d ops of abi/ops.tsv are reached by the fuzz targets" % len(ops))
