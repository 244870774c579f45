#!/usr/bin/env python3
"""validate/sass_summary.py -- what the twins compile to, checked against
what their mini-ISA kernels do.

Reads `cuobjdump --dump-sass gpusim-validate` output and prints, per twin
kernel: its instruction count, the memory/arithmetic opcodes that matter,
and each loop (a backward branch) with its body. EXPECT lists, per kernel,
what the .asm assumes of the compiled code (loops kept rolled, one FFMA per
iteration, 16-byte accesses...); a line 'EXPECT FAIL' means the twin and
its mini-ISA kernel no longer do the same work and the twin must be pinned
(or the .asm rewritten). Exit status 0 even then: the run goes on.

usage: sass_summary.py SASS.txt
"""
import re
import sys
from collections import Counter

# kernel -> list of (description, predicate over the parsed kernel)
def loops_with(op, count, nloops=None):
    def f(k):
        ls = [l for l in k["loops"] if sum(1 for o in l["ops"] if o.startswith(op)) == count]
        return len(ls) >= 1 and (nloops is None or len(k["loops"]) == nloops)
    return (f"{nloops if nloops is not None else '>=1'} loop(s), each with {count} x {op}"
            if nloops else f"a loop with {count} x {op}", f)

def count_of(op, n):
    return (f"{n} x {op}", lambda k: sum(1 for o in k["ops"] if o.startswith(op)) == n)

def count_computed(op, n):
    """n instances of op that read a register: an instance whose source is a
    constant (MUFU.RSQ R0, -QNAN in the IEEE division's slow path) only makes
    a special value and is not the work the .asm counts."""
    def computed(body):
        srcs = body.split(None, 1)[1].split(",")[1:] if " " in body else []
        return any(re.match(r"\s*-?\|?-?U?R\d", x) for x in srcs)
    return (f"{n} x {op} on a register",
            lambda k: sum(1 for o, b in zip(k["ops"], k["bodies"]) if o.startswith(op) and computed(b)) == n)


def no_loops():
    return ("no loop", lambda k: not k["loops"])

def every_loop(op, count):
    return (f"every loop has {count} x {op}",
            lambda k: k["loops"] and all(sum(1 for o in l["ops"] if o.startswith(op)) == count for l in k["loops"]))

# Keys: "<source file>:<kernel>" (validate/twins/<file>.cu, validate/micro/<file>.cu).
EXPECT = {
    "divergence:divergent": [every_loop("FFMA", 1), ("2 loops (one per path)", lambda k: len(k["loops"]) == 2)],
    "divergence:uniform": [every_loop("FFMA", 1), ("2 loops (one per path)", lambda k: len(k["loops"]) == 2)],
    "transpose:transpose_naive": [no_loops(), count_of("LDG", 1), count_of("STG", 1)],
    "transpose:transpose_tiled": [no_loops(), count_of("LDG", 1), count_of("STS", 1), count_of("BAR", 1), count_of("LDS", 1), count_of("STG", 1)],
    "transpose:transpose_tiled_padded": [no_loops(), count_of("LDG", 1), count_of("STS", 1), count_of("BAR", 1), count_of("LDS", 1), count_of("STG", 1)],
    "transpose:copy": [no_loops(), count_of("LDG", 1), count_of("STG", 1)],
    "vecadd:vecadd_scalar": [no_loops(), count_of("LDG", 2), count_of("STG", 1)],
    "vecadd:vecadd_float4": [count_of("LDG.E.128", 2), count_of("STG.E.128", 1), every_loop("LDG", 2)],
    "occupancy:light": [no_loops(), count_of("LDG", 1), count_of("FFMA", 1), count_of("STG", 1)],
    "occupancy:smem_reverse": [no_loops(), count_of("LDG", 1), count_of("STS", 1), count_of("BAR", 1), count_of("LDS", 1), count_of("STG", 1)],
    "reduction:reduce_acc1": [every_loop("LDG", 1), count_of("SHFL.DOWN", 5)],
    "reduction:reduce_acc4": [loops_with("LDG", 4), count_of("SHFL.DOWN", 5)],
    "reduction:reduce_acc4_shared": [loops_with("LDG", 4)],
    "waves:block_work": [every_loop("FFMA", 1)],
    "rmsnorm:rmsnorm": [loops_with("LDG", 1), loops_with("LDG", 2), count_computed("MUFU.RSQ", 1)],
    "rmsnorm:residual_add": [no_loops(), count_of("LDG", 2), count_of("STG", 1)],
    "rmsnorm:fused_add_rmsnorm": [loops_with("STG", 1), count_computed("MUFU.RSQ", 1)],
    "bank_conflicts:bank_stride": [loops_with("LDS", 1)],
    "bank_conflicts:bank_swizzle": [loops_with("LDS", 1)],
    "coalescing:strided_read": [no_loops(), count_of("LDG", 1), count_of("STG", 1)],
    "grid_stride:saxpy_one_per_thread": [no_loops(), count_of("LDG", 2), count_of("FFMA", 1)],
    "grid_stride:saxpy_grid_stride": [every_loop("LDG", 2)],
    "ilp:copy_ilp1": [every_loop("LDG", 1)],
    "ilp:copy_ilp4": [loops_with("LDG", 4)],
    "registers:saxpy": [no_loops(), count_of("LDG", 2), count_of("FFMA", 1)],
    "gemv:gemv_naive": [every_loop("LDG", 2)],
    "gemv:gemv_warp_per_row": [every_loop("LDG", 2), count_of("SHFL.DOWN", 5)],
    "gemm:gemm_naive": [every_loop("LDG", 2)],
    "gemm:gemm_tiled": [loops_with("LDS", 2), ("2 loops (tile, k: the k loop not unrolled)", lambda k: len(k["loops"]) == 2)],
    "compaction:divergent": [every_loop("FFMA", 1)],
    "compaction:compaction": [every_loop("FFMA", 1), count_of("ATOMS", 1)],
    "micro:chase": [every_loop("LDG", 1), ("2 loops", lambda k: len(k["loops"]) == 2)],
    "micro:smem_chase": [("a loop with 1 x LDS and no other memory op",
                          lambda k: any(sum(o.startswith("LDS") for o in l["ops"]) == 1 and
                                        not any(o.startswith(("LDG", "STS", "STG")) for o in l["ops"]) for l in k["loops"]))],
    "micro:fma_lat": [every_loop("FFMA", 16)],
    "micro:sfu_lat": [every_loop("MUFU.RSQ", 16)],
    "micro:fma_tput": [every_loop("FFMA", 32)],
    "micro:sfu_tput": [every_loop("MUFU.RSQ", 32)],
    "micro:scatter_store": [loops_with("STG", 1), count_of("STG", 1)],
    "micro:line_store": [loops_with("STG", 1), count_of("STG", 1)],
    "micro:copy4": [no_loops(), count_of("LDG.E.128", 1), count_of("STG.E.128", 1)],
}

INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNC = re.compile(r"Function\s*:\s*(\S+)")


def short_name(mangled):
    """_ZN..._GLOBAL__N_...13transpose_tiledEPKfPfj -> transpose_tiled."""
    # The last length-prefixed identifier before the parameter list is the name.
    best = None
    s = mangled
    i = 0
    while i < len(s):
        m = re.match(r"(\d+)", s[i:])
        if m:
            n = int(m.group(1))
            j = i + len(m.group(1))
            ident = s[j:j + n]
            if len(ident) == n and re.match(r"[A-Za-z_]", ident or "?"):
                best = ident
                i = j + n
                if i < len(s) and s[i] == "E":
                    break
                continue
        i += 1
    return best or mangled


LABEL = re.compile(r"^\s*(\.L_x_\d+):")


def parse(text):
    kernels = []
    cur = None
    pending = []  # labels (nvdisasm style) waiting for the next instruction
    for line in text.splitlines():
        m = FUNC.search(line)
        if m:
            f = re.search(r"_GLOBAL__N__[0-9a-f]+_\d+_([A-Za-z0-9_]+?)_cu_", m.group(1))
            name = short_name(m.group(1))
            cur = {"mangled": m.group(1), "name": (f.group(1) + ":" if f else "") + name, "insns": [], "labels": {}}
            kernels.append(cur)
            continue
        m = LABEL.match(line)
        if m:
            pending.append(m.group(1))
            continue
        m = INSN.search(line)
        if m and cur is not None:
            addr = int(m.group(1), 16)
            for lab in pending:
                cur["labels"][lab] = addr
            pending = []
            body = m.group(2).strip()
            body = re.sub(r"^@!?U?P[T0-9]+\s+", "", body)
            op = body.split()[0] if body else "?"
            target = None
            b = re.match(r"(?:BRA|BRX)\S*\s+(?:[!U]?P\d+\s*,\s*)?(0x[0-9a-f]+)", body)
            if b:
                target = int(b.group(1), 16)
            else:
                b = re.match(r"(?:BRA|BRX)\S*\s+.*?`?\(?(\.L_x_\d+)\)?", body)
                if b:
                    target = b.group(1)
            cur["insns"].append((addr, op, target, body))
    for k in kernels:
        ins = [(a, o, k["labels"].get(t, -1) if isinstance(t, str) else t, b) for a, o, t, b in k["insns"]]
        # Drop the trailing self-branch and NOP padding after the last EXIT.
        while ins and (ins[-1][1] == "NOP" or (ins[-1][1] == "BRA" and ins[-1][2] == ins[-1][0])):
            ins.pop()
        k["ops"] = [o for _, o, _, _ in ins]
        k["bodies"] = [b for _, _, _, b in ins]
        k["loops"] = []
        for addr, op, target, _ in ins:
            if target is not None and target < addr:
                body = [o for a, o, _, _ in ins if target <= a <= addr]
                k["loops"].append({"start": target, "end": addr, "ops": body})
    return kernels


# VOTE/POPC/REDUX next to an atomic: nvcc aggregated the warp's atomics into
# one (the .asm does one per lane).
INTERESTING = ("LDG", "STG", "LDS", "STS", "LDL", "STL", "BAR", "FFMA", "FADD", "FMUL", "MUFU", "ATOM", "RED",
               "SHFL", "VOTE", "POPC", "REDUX")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1])
        return 2
    kernels = parse(open(sys.argv[1], errors="replace").read())
    fails = 0
    seen = set()
    for k in kernels:
        name = k["name"]
        if name.split(":")[-1].startswith("k_") or name in seen:  # the runner's own helpers
            continue
        seen.add(name)
        hist = Counter(o for o in k["ops"] if o.startswith(INTERESTING))
        mem = " ".join(f"{o}x{c}" for o, c in sorted(hist.items()))
        print(f"{name}: {len(k['ops'])} instructions; {mem}")
        for l in k["loops"]:
            print(f"    loop 0x{l['start']:04x}-0x{l['end']:04x}: {len(l['ops'])} instructions: {' '.join(l['ops'])}")
        if any(o.startswith(("LDL", "STL")) for o in k["ops"]):
            print("    EXPECT FAIL: local memory (spills) in a twin")
            fails += 1
        for desc, pred in EXPECT.get(name, []):
            ok = bool(pred(k))
            fails += not ok
            print(f"    {'expect ok  ' if ok else 'EXPECT FAIL'}: {desc}")
    missing = sorted(set(EXPECT) - seen)
    for m in missing:
        print(f"EXPECT FAIL: kernel {m} not found in the SASS")
    print(f"sass_summary: {len(seen)} kernels, {fails + len(missing)} expectation(s) failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
