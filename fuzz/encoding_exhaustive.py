#!/usr/bin/env python3
"""Exhaustive check of the divisibility / narrow-range argument encoding.

A hoisted parameter with `divisibility=N` or `narrow-range` reaches the
kernel in an encoding (today: the value itself, as i32 with narrow-range,
plus llvm.intr.assume facts in the kernel), under preconditions the pass
records (manifest `hoisted[].preconditions`). The encoding is correct when,
for every value V the recorded preconditions admit, the hoisted program
computes exactly what the program fully specialized on V computes. This
script checks that on the CPU, for every value where the type is small:

  kinds    func.func kernels called by func.func hosts (arith, memref), and
           llvm.func kernels called by llvm.func hosts (LLVM dialect only)
  types    i1 .. i8: every literal the spec.param verifier accepts as the
           marked value M (both spellings of values with the top bit set,
           e.g. 128 and -128 for i8) and every bit pattern as the relaunch
           value V;
           i32, i64 (and index for func kernels): edge values (0, 1, -1, min,
           max, 2^31 - 1, 2^31, 2^32, multiples of every divisor that are
           negative or have the top bit set, ...) as M and as V
  options  divisibility = 2^0 .. 2^9, each with and without narrow-range,
           always with hoist-into-host, so the launch site that encodes the
           value is the one the pass wrote (the host function takes V)

Each kernel loads from a table through addresses that show any difference
in the value it uses: sign- and zero-extended indices, the low 16 bits of
(value - E) and (value - E) itself, E being V passed as a separate runtime
argument (a wrong high half sends the load outside the table: a crash or a
value that is not the expected entry), and the value's low 1..9 bits each
on its own (where an assumed fact that does not hold shows at -O3: the
optimizer folds them to what it was told). For every option set one fly-opt run
hoists every kernel; the recorded preconditions come from the manifest (and
must hold for M itself). Hoisted programs that are byte-identical (same
kernel and host text, same preconditions: the pass gives one module per
encoding) are compiled once and run for the union of their admitted values.
Each admitted V is run through a loop that reads V from memory (the runtime
path) and as a constant argument (what constant propagation sees), with the
whole batch compiled by mlir-runner at -O0 and at -O3, and compared with
the specialized program's output on V computed in the same process.

Prints the coverage (kernels hoisted, distinct programs, admitted
(kernel, V) pairs, runs) and every mismatch; exit status 1 on any failure.

  fuzz/encoding_exhaustive.py --fly-opt build/bin/fly-opt \\
      [--mlir-runner mlir-runner] [--runner-libs DIR] [--jobs 2]
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from enc_values import (  # noqa: E402,F401
    LOWER,
    BOUNDS,
    OPT_LEVELS,
    LOW_BITS,
    SLOTS,
    WORDS,
    PART_LINES,
    TABLE,
    BASE,
    SENTINEL,
    RUN_SECONDS,
    RUN_MEMORY,
    PRINT_LIMIT,
    SMALL_WIDTHS,
    WIDE,
    width,
    signed,
    wide_patterns,
    patterns,
    literals,
    PRECONDITION,
    INTERVAL,
    manifest_facts,
    admits,
    strongest_divisor)
from enc_kernels import (  # noqa: E402,F401
    func_kernel,
    llvm_kernel,
    KERNEL,
    kinds_and_types,
    Tools,
    parallel_map,
    top_level_functions,
    Kernel,
    hoist_all,
    specialize_all)
from enc_driver import (  # noqa: E402,F401
    driver,
    RUNTIME,
    MAIN_PROLOGUE,
    MAIN_EPILOGUE)


# -- Values ---------------------------------------------------------------------


# -- Preconditions ---------------------------------------------------------------


# -- Kernels ---------------------------------------------------------------------


# -- Tools -----------------------------------------------------------------------


# -- The check -------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fly-opt", default="fly-opt")
    parser.add_argument("--mlir-runner", default="mlir-runner")
    parser.add_argument("--runner-libs",
                        help="folder of libmlir_c_runner_utils.so "
                             "(default: next to mlir-runner's bin/)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=20,
                        help="failing cases to print (default 20)")
    parser.add_argument("--localize", type=int, default=2000,
                        help="mlir-runner runs allowed to find the programs "
                             "and values of crashed batches (default 2000)")
    parser.add_argument("--keep", help="keep the work files in this folder")
    args = parser.parse_args()
    start = time.time()
    workdir = args.keep or tempfile.mkdtemp(prefix="flyhoist-encoding-")
    os.makedirs(workdir, exist_ok=True)
    tools = Tools(args, workdir)
    try:
        return check(args, tools, start)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


def check(args, tools, start):
    kernels, programs, problems = hoist_all(tools, args.jobs)
    spec_rows, spec_text = specialize_all(tools)
    hoisted_at = time.time()
    groups = []  # (gid, key, admitted rows, kernels)
    pairs = 0
    for gid, (key, members) in enumerate(sorted(programs.items(),
                                                key=lambda kv: kv[0][:2])):
        kind, ty, _, preconditions = key
        admitted = [row for row, value in spec_rows[(kind, ty)]
                    if admits(preconditions, value)]
        groups.append((gid, key, admitted, members))
        pairs += len(admitted) * len(members)

    # One batch per (kind, type): many programs per mlir-runner process.
    batches = {}
    for gid, key, admitted, _ in groups:
        batches.setdefault(key[:2], []).append((gid, key, admitted))
    jobs = [(kt, level) for kt in batches for level in OPT_LEVELS]
    lowered = {}

    def lower(batch):
        text = driver(batch, spec_rows, spec_text)
        return tools.fly(text, LOWER, "lower %s %s" % batch[0][1][:2])

    def execute(job):
        kt, level = job
        return tools.run(lowered[kt], level)

    for kt, text in zip(batches, parallel_map(lower, batches.values(),
                                              args.jobs)):
        lowered[kt] = text
    lowered_at = time.time()
    results = parallel_map(execute, jobs, args.jobs)

    by_gid = {gid: (key, members) for gid, key, _, members in groups}
    row_value = {row: value for rows in spec_rows.values() for row, value in rows}
    runs = 0
    failures = []  # (gid, level, value); value None: a crash not localized
    budget = [args.localize]
    unexplored = []  # programs of crashed batches not run alone

    def collect(kt, level, out, complete=True):
        """The FAIL lines of a run (of a crashed one: those printed before)."""
        rows = [r for r, _ in spec_rows[kt]]
        seen = set()
        lines = 0
        for line in out.splitlines():
            f = re.match(r"FAIL (\d+), (\d+), (\d+), (-?\d+), (-?\d+)$", line)
            if not f:
                continue
            lines += 1
            if (int(f.group(1)), int(f.group(2))) not in seen:
                seen.add((int(f.group(1)), int(f.group(2))))
                failures.append((int(f.group(1)), level,
                                 row_value[rows[int(f.group(2))]]))
        m = re.search(r"RUNS (\d+)\s+FAILS (\d+)", out)
        if complete and lines != min(int(m.group(2)), PRINT_LIMIT):
            problems.append("%s %s %s: %d FAIL lines read for %s mismatching "
                            "words" % (kt[0], kt[1], level, lines, m.group(2)))

    def attempt(kt, level, batch):
        """Runs `batch` alone; False when it crashed."""
        budget[0] -= 1
        rc, out, _ = tools.run(lower(batch), level)
        if rc != 0 or "RUNS" not in out:
            collect(kt, level, out, complete=False)
            return False
        collect(kt, level, out)
        return True

    def localize(kt, level, batch):
        """A crashed batch (a wrong value sent a load outside the table): runs
        each program alone, then halves the values of each one that crashes
        until one crashing value is found, within the --localize budget.
        Values left unexplored in a crashing program are not counted."""
        for gid, key, adm in batch:
            if budget[0] <= 0:
                unexplored.append(gid)
                continue
            if attempt(kt, level, [(gid, key, adm)]):
                continue
            while len(adm) > 1 and budget[0] > 0:
                half = adm[:len(adm) // 2]
                adm = half if not attempt(kt, level, [(gid, key, half)]) \
                    else adm[len(adm) // 2:]
            failures.append((gid, level, row_value[adm[0]] if len(adm) == 1
                             else None))

    crashed = []
    for (kt, level), (rc, out, err) in zip(jobs, results):
        expected_runs = sum(2 * len(adm) for _, _, adm in batches[kt])
        m = re.search(r"RUNS (\d+)\s+FAILS (\d+)", out)
        if rc != 0 or not m:
            crashed.append("%s %s %s: mlir-runner exited with %d" % (
                kt[0], kt[1], level, rc))
            collect(kt, level, out, complete=False)
            localize(kt, level, batches[kt])
            continue
        if int(m.group(2)) > PRINT_LIMIT:
            problems.append("%s %s %s: %s mismatching words, only the first %d "
                            "printed" % (kt[0], kt[1], level, m.group(2),
                                         PRINT_LIMIT))
        if int(m.group(1)) != expected_runs:
            problems.append("%s %s %s: %s runs, expected %d" % (
                kt[0], kt[1], level, m.group(1), expected_runs))
        runs += int(m.group(1))
        collect(kt, level, out)

    failing_pairs = {}
    for gid, level, value in failures:
        for kernel in by_gid[gid][1]:
            failing_pairs.setdefault((id(kernel), value), (kernel, value, set()))[2].add(level)
    elapsed = time.time() - start
    print("encoding: %d kernels hoisted (%d option sets), %d distinct programs, "
          "%d admitted (kernel, value) pairs, %d runs (-O0 and -O3, value from "
          "memory and as a constant)" % (
              len(kernels), 2 * len(BOUNDS), len(groups), pairs, runs))
    for text in problems[:args.show]:
        print("problem: " + text)
    for text in crashed:
        print("crash: " + text)
    if unexplored:
        print("crash: %d programs of crashed batches not run alone (--localize "
              "budget spent)" % len(unexplored))
    shown = 0
    for kernel, value, levels in sorted(failing_pairs.values(), key=lambda x: (
            x[0].kind, width(x[0].ty), x[0].ty, x[0].literal, x[0].bound,
            x[0].narrow, x[1] is None, x[1] or 0)):
        if shown >= args.show:
            break
        shown += 1
        print("FAIL %s, preconditions %s: %s at %s" % (
            kernel.describe(), list(kernel.preconditions),
            "a value crashes" if value is None else "V=%d differs" % value,
            ",".join(sorted(levels))))
    failing_kernels = {id(k) for k, _, _ in failing_pairs.values()}
    per_type = {}
    for kernel in kernels:
        counts = per_type.setdefault((kernel.kind, kernel.ty), [0, 0])
        counts[0] += id(kernel) in failing_kernels
        counts[1] += 1
    if failing_kernels:
        print("failing kernels per kind and type: " + ", ".join(
            "%s %s %d/%d" % (kind, ty, bad, total)
            for (kind, ty), (bad, total) in per_type.items() if bad))
    print("encoding: %d failing (kernel, value) pairs in %d kernels, %d distinct "
          "programs failing, %d crashed batches, %d other problems" % (
              len(failing_pairs), len(failing_kernels),
              len({gid for gid, _, _ in failures}), len(crashed), len(problems)))
    print("time: %.0f s (hoisting and specializing %.0f s, lowering %.0f s, "
          "running %.0f s)" % (elapsed, hoisted_at - start,
                              lowered_at - hoisted_at, time.time() - lowered_at),
          file=sys.stderr)
    return 1 if failing_pairs or crashed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
