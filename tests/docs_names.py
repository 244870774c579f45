#!/usr/bin/env python3
"""tests/docs_names.py -- what docs/ARCHITECTURE.md names exists in the code.

Every `snake_case` name in backticks (a function, a field, a constant's
lower-case spelling) must occur as a whole word in some source file of the
floors, every `UPPER_CASE` name too, and every backticked path with a
folder (`sim/par.c`, `base/heap.h`) must be a file or folder of the tree.
Prints each miss with its line and fails on any; the doc and the code
drift apart the day a function is renamed, and this says where."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
doc = os.path.join(root, "docs/ARCHITECTURE.md")
floors = ["base", "isa", "sim", "workloads", "cli", "cudart", "viz", "bench", "tests", "validate", "fuzz"]

words = set()
for floor in floors:
    for dirpath, _, files in os.walk(os.path.join(root, floor)):
        for f in files:
            if f.endswith((".c", ".h", ".def", ".cu", ".sh", ".py", ".cmake", ".txt")) or f == "CMakeLists.txt":
                with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                    words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", fh.read()))
with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as fh:
    words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", fh.read()))

misses = []
checked = 0
with open(doc, encoding="utf-8") as fh:
    for lineno, line in enumerate(fh, 1):
        for span in re.findall(r"`([^`]+)`", line):
            for tok in re.split(r"[\s,()]+", span):
                tok = tok.strip(".;:")
                if re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)+", tok) or re.fullmatch(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+", tok):
                    checked += 1
                    if tok not in words:
                        misses.append(f"docs/ARCHITECTURE.md:{lineno}: `{tok}` is named but is in no source file")
                elif re.fullmatch(r"(base|isa|sim|workloads|cli|cudart|viz|validate|bench|fuzz|tests|docs)/[A-Za-z0-9_./<>-]*", tok):
                    if "<" in tok or tok.startswith("build/"):
                        continue
                    checked += 1
                    if not os.path.exists(os.path.join(root, tok.rstrip("/"))):
                        misses.append(f"docs/ARCHITECTURE.md:{lineno}: `{tok}` is named but there is no such file")

for m in misses:
    print(m)
print(f"docs_names: {checked} names checked, {len(misses)} missing")
sys.exit(1 if misses else 0)
