#!/usr/bin/env python3
"""Checks the conventions of the public header that a compiler cannot check:
  - every CT_API declaration is preceded by a comment line or carries a trailing comment;
  - every enum constant has an explicit value (values are ABI and must never depend on order);
  - with --static-checks F: every enum constant and the ABI major macros are frozen in F (abi/static_checks.c).
Usage: abi/check_header.py [--header include/ctensor.h] [--static-checks abi/static_checks.c]"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENUM_BODY = re.compile(r"\benum\b\s*\w*\s*\{(.*?)\}", re.S)
ENUMERATOR = re.compile(r"^\s*(CT_[A-Z0-9_]+)\s*(=\s*(-?(0x[0-9A-Fa-f]+|\d+)))?\s*$")
FROZEN_MACROS = ("CT_VERSION_MAJOR", "CT_ABI_VERSION")


def blank_comments(text):
    """text with every comment replaced by spaces (newlines kept, so offsets and line numbers survive)."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def undocumented_declarations(text):
    lines, code = text.splitlines(), blank_comments(text).splitlines()
    problems = []
    i = 0
    while i < len(code):
        if re.search(r"\bCT_API\b", code[i]) and not code[i].lstrip().startswith("#"):
            end = i
            while ";" not in code[end]:
                end += 1
            name = re.search(r"\b(ct_\w+)\s*\(", " ".join(code[i:end + 1]))
            before = lines[i - 1].strip() if i > 0 else ""
            preceded = before.endswith("*/") and (before.startswith("/*") or before.startswith("*"))
            trailing = "/*" in lines[end].split(";", 1)[1]
            if not (preceded or trailing):
                problems.append("line %d: %s has no one-line comment (above it or after the ';')"
                                % (i + 1, name.group(1) if name else "declaration"))
            i = end
        i += 1
    return problems


def enumerators(text):
    """[(line, name, value or None)] of every enum constant in text."""
    code = blank_comments(text)
    found = []
    for body in ENUM_BODY.finditer(code):
        offset = body.start(1)
        for item in body.group(1).split(","):
            if item.strip():
                m = ENUMERATOR.match(item)
                line = line_of(code, offset + len(item) - len(item.lstrip()))
                found.append((line, m.group(1) if m else item.strip(), m.group(3) if m else None))
            offset += len(item) + 1
    return found


def implicit_enum_values(text):
    return ["line %d: enum constant %s has no explicit value" % (line, name)
            for line, name, value in enumerators(text) if value is None]


def unfrozen_constants(text, static_checks_text):
    code = blank_comments(static_checks_text)
    macros = [m for m in FROZEN_MACROS if re.search(r"^#\s*define\s+%s\b" % m, text, re.M)]
    names = [name for _, name, _ in enumerators(text)] + macros
    return ["%s is not checked in abi/static_checks.c (freeze its value there)" % name
            for name in names if not re.search(r"\b%s\b" % re.escape(name), code)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--header", type=pathlib.Path, default=ROOT / "include" / "ctensor.h")
    parser.add_argument("--static-checks", type=pathlib.Path)
    args = parser.parse_args()
    text = args.header.read_text()
    problems = undocumented_declarations(text) + implicit_enum_values(text)
    if args.static_checks:
        problems += unfrozen_constants(text, args.static_checks.read_text())
    for problem in problems:
        print("%s: %s" % (args.header, problem))
    declarations = len(re.findall(r"^\s*CT_API\b", blank_comments(text), re.M))
    if problems:
        print("check_header: %d problem(s)" % len(problems))
        return 1
    print("check_header: %d CT_API declarations documented, %d enum constants with explicit values"
          % (declarations, len(enumerators(text))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
