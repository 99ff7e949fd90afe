#!/usr/bin/env python3
"""Tests abi/static_checks.c: it compiles against include/ctensor.h, and it stops compiling when the header
changes a frozen value (an enum constant, a struct field, a callback type). Usage:
    test_static_checks.py <compiler>...   (C++ compilers, named *++, compile the file as C++17)"""
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
HEADER = (ROOT / "include" / "ctensor.h").read_text()
STATIC_CHECKS = ROOT / "abi" / "static_checks.c"
COMPILERS = sys.argv[1:] or ["cc"]

# (description, text in the header, replacement): each must make static_checks.c fail to compile.
MUTATIONS = [
    ("status value", "CT_ERR_SHAPE = 3,", "CT_ERR_SHAPE = 30,"),
    ("dtype value", "CT_INT64 = 3,", "CT_INT64 = 7,"),
    ("device type value", "CT_DEVICE_CUDA = 2", "CT_DEVICE_CUDA = 3"),
    ("reduction value", "CT_REDUCTION_SUM = 2", "CT_REDUCTION_SUM = 3"),
    ("struct field type", "    int32_t index;\n} ct_device;", "    int64_t index;\n} ct_device;"),
    ("struct field order", "    int32_t type;\n    int32_t index;", "    int32_t index;\n    int32_t type;"),
    ("callback signature", "typedef void (*ct_deleter_fn)(void* data, void* ctx);",
     "typedef void (*ct_deleter_fn)(void* data);"),
    ("status width", "typedef int32_t ct_status;", "typedef int64_t ct_status;"),
]


def compile_with(compiler, include_dir):
    language = ["-x", "c++", "-std=c++17"] if compiler.endswith("++") else ["-std=c11"]
    cmd = [compiler, *language, "-pedantic", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
           "-I", str(include_dir), str(STATIC_CHECKS)]
    return subprocess.run(cmd, capture_output=True, text=True)


class StaticChecksTest(unittest.TestCase):
    def test_compiles_against_the_header(self):
        for compiler in COMPILERS:
            with self.subTest(compiler=compiler):
                result = compile_with(compiler, ROOT / "include")
                self.assertEqual(result.returncode, 0, result.stderr)

    def test_changed_values_fail_to_compile(self):
        for description, old, new in MUTATIONS:
            self.assertEqual(HEADER.count(old), 1, "mutation '%s' no longer matches the header" % description)
            with tempfile.TemporaryDirectory() as tmp:
                (pathlib.Path(tmp) / "ctensor.h").write_text(HEADER.replace(old, new))
                for compiler in COMPILERS:
                    with self.subTest(compiler=compiler, mutation=description):
                        result = compile_with(compiler, tmp)
                        self.assertNotEqual(result.returncode, 0, "%s: a changed %s compiled" % (compiler, description))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
