"""pass_table.py - the per-language pass table of the conformance suite, as Markdown: for each language, the ops of
abi/ops.tsv its binding exposes, the suite's ops whose every case passed, and the cases run, passed and failed.
The counts come from the result files the runners write into CONFORMANCE_RESULTS_DIR (<lang>.json; ctest sets it to
<build>/conformance); "exposed" is read from each binding's own op list or sources:
  C       every op whose function include/ctensor.h declares
  Python  every op whose C function the extension (bindings/python/src/*.c) calls, by name or in an X(op) table
  Rust    every op whose C function the safe crate (bindings/rust/ctensor/src) calls
  Java    every op named by an @Op annotation (bindings/java/src/main/java; CoverageTest checks them)
  Julia   every op listed in bindings/julia/src/oplist.jl (the binding's tests check it against ops.tsv)
Usage: python3 pass_table.py [RESULTS_DIR] [--check-readme | --write-readme] (default build/conformance); exits 1
when a language has no result. --check-readme also fails when README.md's table (between the conformance-table
markers) differs from this one; --write-readme rewrites it there."""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
LANGUAGES = [("C", "c"), ("Python", "python"), ("Rust", "rust"), ("Java", "java"), ("Julia", "julia")]


def ops_tsv():
    """[(op name, C function)] of abi/ops.tsv."""
    rows = []
    with open(os.path.join(REPO, "abi", "ops.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                cols = line.rstrip("\n").split("\t")
                rows.append((cols[0], cols[1]))
    return rows


def read(pattern, skip=()):
    text = []
    for path in sorted(glob.glob(os.path.join(REPO, pattern), recursive=True)):
        if os.path.basename(path) not in skip:
            with open(path, encoding="utf-8") as f:
                text.append(f.read())
    return "\n".join(text)


def calls(text, ops):
    """The ops whose C function is named in text (as a whole word, or as X(name) of an X-macro op table)."""
    names = set(re.findall(r"\bct_\w+", text)) | {"ct_" + x for x in re.findall(r"\bX\((\w+)\)", text)}
    return {op for op, fn in ops if fn in names}


def exposed(lang, ops):
    names = {op for op, _ in ops}
    if lang == "c":
        return calls(read("include/ctensor.h"), ops)
    if lang == "python":
        return calls(read("bindings/python/src/*.c"), ops)
    if lang == "rust":
        return calls(read("bindings/rust/ctensor/src/*.rs"), ops)
    if lang == "java":
        found = set()
        for args in re.findall(r"@Op\(([^)]*)\)", read("bindings/java/src/main/java/**/*.java")):
            found.update(re.findall(r'"(\w+)"', args))
        return found & names
    if lang == "julia":  # the OPS dict of oplist.jl and the files that merge! into it (e.g. conv_nd.jl)
        found = set()
        for path in sorted(glob.glob(os.path.join(REPO, "bindings/julia/src/*.jl"))):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if "const OPS" in text or "merge!(OPS" in text:
                found.update(re.findall(r'"(\w+)"\s*=>', text))
        return found & names
    raise ValueError(lang)


README = os.path.join(REPO, "README.md")
BEGIN, END = "<!-- conformance-table:begin -->", "<!-- conformance-table:end -->"


def readme_table(table, write):
    """Compares the table with README.md's (between BEGIN and END), or writes it there. True when they agree."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    start, stop = text.find(BEGIN), text.find(END)
    if start < 0 or stop < start:
        print(f"README.md has no {BEGIN} ... {END} section", file=sys.stderr)
        return False
    start += len(BEGIN)
    if text[start:stop].strip() == table.strip():
        return True
    if write:
        with open(README, "w", encoding="utf-8") as f:
            f.write(text[:start] + "\n" + table + "\n" + text[stop:])
        return True
    print("README.md's conformance table differs from the results: run "
          "python3 tests/conformance/pass_table.py build/conformance --write-readme", file=sys.stderr)
    return False


def main():
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    results = args[0] if args else os.path.join(REPO, "build", "conformance")
    ops = ops_tsv()
    lines = [f"| language | ops exposed (of {len(ops)} in abi/ops.tsv) | suite ops all passing | cases run | passed | failed |",
             "|---|---|---|---|---|---|"]
    missing = []
    for name, lang in LANGUAGES:
        path = os.path.join(results, f"{lang}.json")
        shown = f"{len(exposed(lang, ops))}"
        if not os.path.exists(path):
            missing.append(name)
            lines.append(f"| {name} | {shown} | not run | - | - | - |")
            continue
        with open(path) as f:
            r = json.load(f)
        lines.append(f"| {name} | {shown} | {r['ops_passed']} of {r['ops']} | {r['run']} | {r['passed']} | {r['failed']} |")
    print("\n".join(lines))
    if missing:
        print(f"\nno result in {results} for: {', '.join(missing)}", file=sys.stderr)
    readme_ok = True
    if flags & {"--check-readme", "--write-readme"}:
        readme_ok = readme_table("\n".join(lines), "--write-readme" in flags)
    sys.exit(1 if missing or not readme_ok else 0)


if __name__ == "__main__":
    main()
