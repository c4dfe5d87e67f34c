#!/usr/bin/env python3
"""Instructions a node, native against wasm: the engine's bench counted by valgrind, not timed.

On a shared machine the timed ratio of the wasm build's speed to the native build's moves by ±10 % from one run to
the next, so a change worth 2 % cannot be seen in it. Instructions executed are counted the same on every run
(±0.1 %), and the wasm module's count is stable too once V8 compiles every function with its optimising compiler
up front (`--no-liftoff`) on one thread (`--single-threaded`). They are not time: cache misses and
mispredicted branches cost nothing here, so a change must still be timed. But they show where the wasm build
executes more than the native one, function by function, and whether a change takes instructions away.

    tools/wasm-instructions.py [--depth 7] [--top 25]      (after `make build`; needs valgrind and Node)

Runs `homeostat bench DEPTH nnue` and the wasm package's `bench(DEPTH, net)` under Node, each under callgrind,
and each again at depth 1, whose count (start-up, the table cleared for every position) is taken off; then prints
the instructions a node of both and a table of the busiest functions. The wasm package is built once more with
its function names kept (wasm-bindgen --keep-debug, wasm-opt -O3 -g) in target/wasm-instructions/, so that V8's
`--perf-basic-prof` map names its compiled code; the package the page uses is not touched. A function that one
build inlines and the other does not shows under its caller in one column only.
"""

import argparse
import bisect
import collections
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
OUT = os.path.join(TARGET, "wasm-instructions")
NATIVE = os.path.join(TARGET, "release", "homeostat")
RAW_WASM = os.path.join(TARGET, "wasm32-unknown-unknown", "release", "homeostat_web.wasm")
WASM_OPT = os.path.join(ROOT, "node_modules", ".bin", "wasm-opt")
# The Makefile's WASM_FEATURES, and simd.
FEATURES = ["--enable-bulk-memory", "--enable-bulk-memory-opt", "--enable-nontrapping-float-to-int",
            "--enable-sign-ext", "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue",
            "--enable-simd"]

NODE_BENCH = """
import { readFile } from "node:fs/promises";
const pkg = await import(process.argv[2] + "/homeostat_web.js");
await pkg.default({ module_or_path: await readFile(process.argv[2] + "/homeostat_web_bg.wasm") });
const net = new Uint8Array(await readFile(process.argv[2] + "/homeostat.nnue"));
console.log(`Nodes searched: ${pkg.bench(Number(process.argv[3]), net).nodes}`);
"""


def run(cmd):
    """Runs `cmd`, failing with its output when it fails."""
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout + done.stderr


def number(token, previous):
    """A callgrind position: absolute, relative (+N, -N) or the same as before (*)."""
    if token == "*":
        return previous
    if token[0] in "+-":
        return previous + int(token, 0)
    return int(token, 0)


def self_costs(path):
    """Each function's own instructions (not its callees') and each address's, from a callgrind file
    written with --dump-instr=yes, and the set of functions of each object file."""
    by_name, by_addr, names, objects = collections.Counter(), collections.Counter(), {}, {}
    by_object = collections.defaultdict(set)
    fn, ob, addr, after_call = "?", "?", 0, False
    with open(path) as f:
        for text in f:
            m = re.match(r"(c?)(ob|fn)=\((\d+)\)(?: (.*))?", text.rstrip("\n"))
            if m:
                # Objects and functions are numbered: the name comes with the number the first time a line
                # uses it, whether it names the current one (ob=, fn=) or a callee's (cob=, cfn=).
                called, kind, key, name = m.groups()
                table = objects if kind == "ob" else names
                if name is not None:
                    table[key] = name
                if not called and kind == "ob":
                    ob = table.get(key, "?")
                elif not called:
                    fn = table.get(key, "?")
                    by_object[ob].add(fn)
            elif text.startswith("calls="):
                after_call = True  # the next cost line is the call's inclusive cost
            elif text and (text[0].isdigit() or text[0] in "+-*"):
                parts = text.split()  # instruction address, source line (unused), instructions
                addr = number(parts[0], addr)
                if after_call:
                    after_call = False
                elif len(parts) > 2:
                    by_name[fn] += int(parts[2])
                    by_addr[addr] += int(parts[2])
    return by_name, by_addr, by_object


def total(path):
    """The run's instruction total from callgrind's summary line."""
    with open(path) as f:
        for text in f:
            if text.startswith("summary:"):
                return int(text.split()[1])
    sys.exit(f"no summary in {path}")


def plain(name):
    """A Rust symbol without its hash, recursion mark or V8's suffix."""
    name = re.sub(r"::h[0-9a-f]{16}", "", name)
    name = re.sub(r"'\d+$", "", name)
    name = re.sub(r"^JS:", "", name)
    return re.sub(r"-\d+-turbofan$", "", name)


def callgrind(cmd, out):
    """Runs `cmd` under callgrind into `out`; returns its output."""
    return run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--smc-check=all",
                f"--callgrind-out-file={out}"] + cmd)


def nodes_of(output):
    m = re.search(r"Nodes searched: (\d+)", output)
    if not m:
        sys.exit(f"no node count in:\n{output}")
    return int(m.group(1))


def native(depth, work):
    """(nodes, total instructions, per-function instructions) of the native bench."""
    out = os.path.join(work, f"native-{depth}.cg")
    nodes = nodes_of(callgrind([NATIVE, "bench", str(depth), "nnue"], out))
    by_name, _, by_object = self_costs(out)
    functions = collections.Counter()
    for name, cost in by_name.items():
        functions[plain(name)] += cost
    own = {plain(name) for path, fns in by_object.items() if os.path.basename(path) == "homeostat" for name in fns}
    return nodes, total(out), functions, own


def wasm(depth, work, pkg):
    """The same for the wasm package under Node, its compiled code named by V8's perf map."""
    script = os.path.join(work, "bench.mjs")
    with open(script, "w") as f:
        f.write(NODE_BENCH)
    out = os.path.join(work, f"wasm-{depth}.cg")
    # --perf-basic-prof writes /tmp/perf-PID.map: the one that was not there before.
    before = set(os.listdir("/tmp"))
    output = callgrind(["node", "--no-liftoff", "--single-threaded", "--perf-basic-prof", script, pkg,
                        str(depth)], out)
    maps = [p for p in set(os.listdir("/tmp")) - before if re.fullmatch(r"perf-\d+\.map", p)]
    if len(maps) != 1:
        sys.exit(f"expected one new /tmp/perf-PID.map, found {maps}")
    ranges = []
    with open(os.path.join("/tmp", maps[0])) as f:
        for text in f:
            start, size, name = text.rstrip("\n").split(" ", 2)
            ranges.append((int(start, 16), int(size, 16), name))
    os.remove(os.path.join("/tmp", maps[0]))
    ranges.sort()
    starts = [r[0] for r in ranges]
    _, by_addr, _ = self_costs(out)
    functions, own = collections.Counter(), set()
    for addr, cost in by_addr.items():
        i = bisect.bisect_right(starts, addr) - 1
        inside = i >= 0 and addr < ranges[i][0] + ranges[i][1]
        name = plain(ranges[i][2]) if inside else "(V8 and Node themselves)"
        functions[name] += cost
        # The module's functions, compiled by TurboFan: `JS:NAME-INDEX-turbofan` in V8's map.
        if inside and re.search(r"-\d+-turbofan$", ranges[i][2]) and not ranges[i][2].startswith("JS:*"):
            own.add(name)
    return nodes_of(output), total(out), functions, own


def profile_package():
    """The engine's wasm package with its function names kept, built from cargo's output."""
    pkg = os.path.join(OUT, "pkg")
    os.makedirs(pkg, exist_ok=True)
    run(["wasm-bindgen", "--target", "web", "--keep-debug", "--out-dir", pkg, RAW_WASM])
    wasm_file = os.path.join(pkg, "homeostat_web_bg.wasm")
    run([WASM_OPT, "-O3", "-g"] + FEATURES + [wasm_file, "-o", wasm_file])
    shutil.copy(os.path.join(ROOT, "crates", "engine", "nets", "default.nnue"), os.path.join(pkg, "homeostat.nnue"))
    return pkg


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=7, help="bench depth (default 7)")
    parser.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    args = parser.parse_args()
    for need, hint in [(NATIVE, "run make build"), (RAW_WASM, "run make wasm"), (WASM_OPT, "run make deps")]:
        if not os.path.exists(need):
            sys.exit(f"{need} is missing: {hint}")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is missing: apt-get install valgrind")
    pkg = profile_package()
    n_nodes, n_total, n_funcs, n_own = native(args.depth, OUT)
    n1_nodes, n1_total, n1_funcs, _ = native(1, OUT)
    w_nodes, w_total, w_funcs, w_own = wasm(args.depth, OUT, pkg)
    w1_nodes, w1_total, w1_funcs, _ = wasm(1, OUT, pkg)
    # The search's own work: what the depth-1 run spent (start-up, compiling, clearing tables) taken off.
    n_funcs.subtract(n1_funcs)
    w_funcs.subtract(w1_funcs)
    if n_nodes != w_nodes:
        sys.exit(f"the two builds searched different trees ({n_nodes} against {w_nodes} nodes)")
    nodes = n_nodes - n1_nodes
    # The engine's own code: the native binary's functions, the module's compiled functions; not the C
    # library, V8, Node or JavaScript, whose counts move a little from run to run (the collector, compiling).
    own_native = sum(c for name, c in n_funcs.items() if name in n_own)
    own_wasm = sum(c for name, c in w_funcs.items() if name in w_own)
    print(f"bench {args.depth} with the net, {n_nodes:,} nodes in both builds (the depth-1 run's counts taken off)")
    print(f"instructions a node, everything: native {(n_total - n1_total) / nodes:,.0f}, "
          f"wasm {(w_total - w1_total) / nodes:,.0f}")
    print(f"instructions a node, the engine's code: native {own_native / nodes:,.0f}, wasm {own_wasm / nodes:,.0f}; "
          f"native / wasm {own_native / own_wasm:.3f}")
    print()
    print(f"{'native':>14} {'wasm':>14} {'wasm/native':>11}  function (own instructions, bench {args.depth} less bench 1)")
    names = sorted(set(n_funcs) | set(w_funcs), key=lambda k: -max(n_funcs[k], w_funcs[k]))
    for name in names[: args.top]:
        ratio = f"{w_funcs[name] / n_funcs[name]:.2f}" if n_funcs[name] > 0 and w_funcs[name] > 0 else "—"
        print(f"{n_funcs[name]:14,} {w_funcs[name]:14,} {ratio:>11}  {name[:100]}")


if __name__ == "__main__":
    main()
