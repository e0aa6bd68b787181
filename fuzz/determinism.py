#!/usr/bin/env python3
"""Determinism of hoist-stride-specialization.

For every input (files given on the command line, plus --random N kernels
from gen_kernels.py), requires that
  - the output is byte-identical across --runs runs, with threading on and
    with --mlir-disable-threading (remarks included: stderr must match too);
  - running the pass twice (in one pipeline, and on its own output) gives the
    same module as running it once, under every option set the differential
    test uses (differential.OPTION_SETS: materialize-kept=false, divisibility
    bounds, narrow-range, hoist-into-host), or only the defaults with
    --defaults-only.
Inputs the pass rejects must be rejected the same way every time.
Exit status 0 when every input passes.
"""

import argparse
import random
import subprocess
import sys

import differential
import gen_kernels

PASS = "--hoist-stride-specialization"


def run(fly_opt, flags, text):
    proc = subprocess.run([fly_opt] + flags, input=text, capture_output=True,
                          text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def check_idempotent(fly_opt, name, text, split, options):
    """Problems with the pass, under `options`, run twice against once.
    Locations are printed (-mlir-print-debuginfo), so that the output read
    back has the operations where the first run had them: a function planned
    again (its kept `spec.param`s left in place by materialize-kept=false)
    records its launch sites where they are in the IR it is given."""
    flag = "%s=%s" % (PASS, options)
    split = split + ["-mlir-print-debuginfo"]
    once = run(fly_opt, split + [flag], text)
    if once[0] != 0:
        # The caller checks only inputs the pass accepts with its defaults; a
        # run that fails under other options (a crash included) is reported.
        first_line = (once[2].strip().splitlines() or ["no message"])[0]
        return ["%s [%s]: the pass fails (exit status %d): %s"
                % (name, options, once[0], first_line)]
    problems = []
    twice = run(fly_opt, split + [flag, flag], text)
    if twice[:2] != once[:2]:
        problems.append("%s [%s]: the pass twice in one pipeline differs from once"
                        % (name, options))
    # A split input's output keeps the separators, so it splits the same way.
    again = run(fly_opt, split + [flag], once[1])
    if again[0] != 0 or again[1] != once[1]:
        problems.append("%s [%s]: the pass on its own output changes it"
                        % (name, options))
    return problems


def check(fly_opt, name, text, runs, option_sets):
    """Returns a list of problems for one input."""
    problems = []
    split = ["--split-input-file"] if "// -----" in text else []
    reference = run(fly_opt, split + [PASS], text)
    for n in range(runs):
        for threading in ([], ["--mlir-disable-threading"]):
            got = run(fly_opt, split + [PASS] + threading, text)
            if got != reference:
                problems.append("%s: run %d%s differs" % (name, n, " (no threads)" if threading else ""))
    if reference[0] != 0:
        return problems
    for options in option_sets:
        problems += check_idempotent(fly_opt, name, text, split, options)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fly-opt", default="fly-opt")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--random", type=int, default=0,
                        help="number of generated kernels to add")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--defaults-only", action="store_true",
                        help="check twice == once with the default options only")
    parser.add_argument("inputs", nargs="*")
    args = parser.parse_args()
    option_sets = (differential.OPTION_SETS[:1] if args.defaults_only
                   else differential.OPTION_SETS)
    cases = []
    for path in args.inputs:
        with open(path) as f:
            cases.append((path, f.read()))
    rng = random.Random(args.seed)
    for n in range(args.random):
        kernel = gen_kernels.generate(rng)
        values = gen_kernels.random_values(rng, kernel)
        # Alternate host-level and gpu.module kernels.
        text = (kernel.gpu_module_text(values) if n % 2
                else kernel.module_text(values))
        cases.append(("generated #%d" % n, text))
    problems = []
    for name, text in cases:
        problems += check(args.fly_opt, name, text, args.runs, option_sets)
    for problem in problems:
        print("FAIL " + problem)
    print("determinism: %d inputs, %d option sets, %d problems"
          % (len(cases), len(option_sets), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
