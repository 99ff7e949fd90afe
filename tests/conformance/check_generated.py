"""check_generated.py - the committed cases are what generate.py writes: regenerates them into a temporary folder
with this machine's torch and compares the files byte for byte (fails naming the first differing case)."""
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
with tempfile.TemporaryDirectory() as out:
    subprocess.run([sys.executable, os.path.join(here, "generate.py"), out], check=True, stdout=subprocess.DEVNULL)
    committed = sorted(f for f in os.listdir(os.path.join(here, "cases")) if f.endswith(".json"))
    fresh = sorted(f for f in os.listdir(out) if f.endswith(".json"))
    if committed != fresh:
        sys.exit(f"case files differ: committed {committed}, generated {fresh}")
    for name in committed:
        with open(os.path.join(here, "cases", name), "rb") as a, open(os.path.join(out, name), "rb") as b:
            old, new = a.read(), b.read()
        if old != new:
            old_cases, new_cases = json.loads(old)["cases"], json.loads(new)["cases"]
            for x, y in zip(old_cases, new_cases):
                if x != y:
                    sys.exit(f"{name}: case {x['id']} differs from what generate.py writes now; rerun generate.py")
            sys.exit(f"{name}: {len(old_cases)} committed cases, {len(new_cases)} generated")
    print(f"{len(committed)} case files reproduced exactly")
