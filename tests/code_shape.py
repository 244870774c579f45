#!/usr/bin/env python3
"""tests/code_shape.py -- the shape the code keeps (issue: one writer per
structure): no C file over 900 lines, and no function over 120 lines but the
executors' switches (isa/exec.c exec_step, isa/exec_ptx.c exec_ptx_alu, one
case per opcode by design). A function is counted from its signature's first
line to the closing brace in column 0. Prints each file or function past its
limit and fails on any."""
import os
import re
import subprocess
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
MAX_FILE, MAX_FUNCTION = 900, 120
EXEMPT = {("isa/exec.c", "exec_step"), ("isa/exec_ptx.c", "exec_ptx_alu")}

try:
    files = subprocess.check_output(["git", "-C", root, "ls-files", "*.c", "*.h"], text=True).split()
except (OSError, subprocess.CalledProcessError):
    files = [os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root)
             for f in fs if f.endswith((".c", ".h")) and "/build" not in d]

bad = []
nfunc = 0
for f in files:
    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
        lines = fh.read().split("\n")
    if len(lines) - 1 > MAX_FILE:
        bad.append(f"{f}: {len(lines) - 1} lines (at most {MAX_FILE})")
    if not f.endswith(".c"):
        continue
    for i, l in enumerate(lines):
        if l != "{":
            continue
        k = i - 1
        while k > 0 and lines[k].startswith((" ", "\t")):
            k -= 1
        head = re.sub(r"__attribute__\(\(.*?\)\)", "", lines[k])
        m = re.match(r"^[A-Za-z].*?\b(\w+)\s*\(", head)
        if not m or "=" in head.split("(")[0] or head.startswith(("typedef", "struct", "enum")):
            continue
        j = i + 1
        while j < len(lines) and lines[j] != "}":
            j += 1
        nfunc += 1
        n = j - k + 1
        if n > MAX_FUNCTION and (f, m.group(1)) not in EXEMPT:
            bad.append(f"{f}:{k + 1}: {m.group(1)} is {n} lines (at most {MAX_FUNCTION})")

for b in bad:
    print(b)
print(f"code_shape: {len(files)} files, {nfunc} functions, {len(bad)} past the limits")
sys.exit(1 if bad else 0)
