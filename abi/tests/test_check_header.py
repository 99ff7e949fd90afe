#!/usr/bin/env python3
"""Tests abi/check_header.py on scratch headers: documented declarations and explicit enum values pass; a
declaration without a comment, an enum constant without a value, and a constant missing from the static
checks each fail with a message naming it."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECK = pathlib.Path(__file__).resolve().parent.parent / "check_header.py"

GOOD = """/* scratch.h */
#define CT_API
enum {
    CT_A = 0, /* first */
    CT_B = 1  /* second, after a comment with a comma, in it */
};
typedef struct ct_pair { int first; int second; } ct_pair;
/* Documented above. */
CT_API int ct_one(void);
CT_API int ct_two(int a,
                  int b); /* documented after the ';' of a declaration spanning two lines */
"""

STATIC_CHECKS = "_Static_assert(CT_A == 0, \"\");\n_Static_assert(CT_B == 1, \"\");\n"


def run_check(header_text, static_checks_text=None):
    with tempfile.TemporaryDirectory() as tmp:
        header = pathlib.Path(tmp) / "scratch.h"
        header.write_text(header_text)
        cmd = [sys.executable, str(CHECK), "--header", str(header)]
        if static_checks_text is not None:
            checks = pathlib.Path(tmp) / "static_checks.c"
            checks.write_text(static_checks_text)
            cmd += ["--static-checks", str(checks)]
        return subprocess.run(cmd, capture_output=True, text=True)


class CheckHeaderTest(unittest.TestCase):
    def test_good_header_passes(self):
        result = run_check(GOOD, STATIC_CHECKS)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("2 CT_API declarations documented, 2 enum constants", result.stdout)

    def test_undocumented_declaration_fails(self):
        bad = GOOD.replace("/* Documented above. */\n", "\n")
        result = run_check(bad)
        self.assertEqual(result.returncode, 1)
        self.assertIn("line 9: ct_one has no one-line comment", result.stdout)

    def test_comment_two_lines_up_does_not_count(self):
        bad = GOOD.replace("/* Documented above. */\n", "/* Documented above. */\n\n")
        self.assertIn("ct_one has no one-line comment", run_check(bad).stdout)

    def test_implicit_enum_value_fails(self):
        bad = GOOD.replace("CT_B = 1  /*", "CT_B  /*")
        result = run_check(bad)
        self.assertEqual(result.returncode, 1)
        self.assertIn("line 5: enum constant CT_B has no explicit value", result.stdout)

    def test_constant_missing_from_static_checks_fails(self):
        bad = GOOD.replace("CT_B = 1  /*", "CT_B = 1, CT_C = 2  /*")
        result = run_check(bad, STATIC_CHECKS)
        self.assertEqual(result.returncode, 1)
        self.assertIn("CT_C is not checked in abi/static_checks.c", result.stdout)
        bad = GOOD.replace("#define CT_API", "#define CT_API\n#define CT_ABI_VERSION 1")
        result = run_check(bad, STATIC_CHECKS)
        self.assertEqual(result.returncode, 1)
        self.assertIn("CT_ABI_VERSION is not checked in abi/static_checks.c", result.stdout)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
