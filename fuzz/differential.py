#!/usr/bin/env python3
"""Differential test of hoist-stride-specialization on random kernels.

For each kernel from gen_kernels.py, marked with values M:
  1. hoist it (fly-opt --hoist-stride-specialization) and read the manifest
     the pass writes (manifest=<file>: its records as JSON);
  2. check, with a checker that shares no code with the pass's analysis, that
     every hoisted argument reaches only load/store index operands through
     address arithmetic (generic-form IR, taint propagation to a fixpoint);
  3. check the decisions against what the generator knows: a parameter given
     a blocking use is kept, every other used parameter is hoisted;
  4. for several values V (V = M first, then values that differ from M in the
     hoisted parameters and meet the preconditions the record gives), run
     with mlir-runner at -O0 and at -O3 (nsw/nuw poison and assumed facts
     only bite once the optimizer uses them)
       - the kernel fully specialized on V (materialize-specialization), and
       - the kernel hoisted from M, called with V,
     and require byte-identical printed output; for V = M the call site the
     pass itself updated is run too;
  5. check identity: hoisting the module marked with V gives a kernel
     function byte-identical to the one hoisted from M.

Each kernel is hoisted under one of OPTION_SETS (drawn per kernel; every
set is used in turn with --kernels >= len(OPTION_SETS)): the defaults,
materialize-kept=false, divisibility bounds with and without narrow-range,
and hoist-into-host alone and with the encodings. Under hoist-into-host,
@main reaches @kernel through a random chain of launchers (public or
private, calling the next one once or twice; sometimes one whose symbol a
`func.constant` takes, which cannot take an argument and passes a constant
of its own). Step 4 then also runs the whole program as the pass rewrote
it, @main passing V to the new arguments at the top of the chain, and checks
that the chain got the arguments exactly when no launcher on it is taken.
(The edge values of each encoding are covered exhaustively by
encoding_exhaustive.py.)

Each kernel is also printed as a gpu.func in a gpu.module (the generator's
`--gpu` form), hoisted under the same options, and must still lower to a code
object (fuzz/lowering.py: flyhoist-amdgpu-pipeline for gfx942 and
flyhoist-nvvm-pipeline) wherever its materialized form does.

`--classes N` runs, instead, N inputs of each defect class of
gen_classes.py (issue 26) through its oracles: crash (fly-opt killed by a
signal: fuzz/exits.py), invalid IR (the pass run without verification, its
output then parsed and verified again), wrong result (host
programs, mlir-runner at -O0 and -O3, specialized against hoisted), no
longer lowers, missed keep (a parameter the generator gave a blocking role
or an immediate role, hoisted), a valid input rejected, a record naming the
wrong host argument, a divisor that is not a positive power of two dividing
the value. It prints, per class, the inputs and how many had a defect.

Exit status 0 when every check passes; failing inputs go to --failures.
"""

import argparse
import concurrent.futures
import os
import sys
import time

from diff_tools import (  # noqa: E402,F401
    LOWER,
    OPTION_SETS,
    OPT_LEVELS,
    Failure,
    run,
    Tools,
    pipeline_options,
    check_lowers)
from diff_ir import (  # noqa: E402,F401
    hoisted_entries,
    kept_values,
    function_text,
    signature_types,
    replace_main,
    OP_RE,
    BLOCK_RE,
    PASS_THROUGH,
    check_address_only,
    SELF_TEST_IR,
    self_test)
from diff_kernels import (  # noqa: E402,F401
    launcher_chain,
    divisor_for,
    used_params,
    test_kernel,
    match_trace,
    test_kernel_inferred)
from diff_classes import (  # noqa: E402,F401
    DEFECTS,
    class_defects,
    run_classes)


# -- Lowering to a code object ---------------------------------------------------


# -- Reading the pass's output --------------------------------------------------


# -- The independent checker ----------------------------------------------------


# -- One kernel -----------------------------------------------------------------


# -- Inference mode ---------------------------------------------------------------


# -- The defect classes of issue 26 (gen_classes.py) -------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fly-opt", default="fly-opt")
    parser.add_argument("--mlir-runner", default="/usr/lib/llvm-22/bin/mlir-runner")
    parser.add_argument("--runner-libs", default=None,
                        help="folder of libmlir_runner_utils.so (default: "
                        "mlir-runner's ../lib)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kernels", type=int, default=20)
    parser.add_argument("--trials", type=int, default=3,
                        help="values per kernel (the first is the marked one)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="",
                        help="draw only the option sets containing this text "
                        "(e.g. hoist-into-host)")
    parser.add_argument("--infer", action="store_true",
                        help="inference mode: the spec.params are "
                        "materialized into plain constants, traced at three "
                        "values and inferred back (infer-spec-params)")
    parser.add_argument("--failures", default=None,
                        help="directory for failing inputs")
    parser.add_argument("--classes", type=int, default=0,
                        help="instead of random kernels, N inputs of each "
                        "defect class of gen_classes.py")
    parser.add_argument("--class-only", default="",
                        help="with --classes: the classes containing this text")
    parser.add_argument("--verbose", action="store_true",
                        help="with --classes: one line per defect")
    args = parser.parse_args()
    if not self_test():
        return 1
    if args.classes:
        return 1 if run_classes(Tools(args), args) else 0
    if not any(args.only in o for o in OPTION_SETS):
        parser.error("no option set contains %r" % args.only)
    tools = Tools(args)
    totals = {"kernels": 0, "runs": 0, "values": 0, "hoisted": 0, "kept": 0,
              "equals": 0, "chains": 0, "taken": 0, "chain_runs": 0,
              "per_value": 0, "inferred": 0, "lowered": 0}
    test = test_kernel_inferred if args.infer else test_kernel
    failures = []
    begin = time.time()
    seeds = [args.seed * 1000003 + n for n in range(args.kernels)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(test, tools, s, args.trials, args.only): s for s in seeds}
        for future in concurrent.futures.as_completed(futures):
            seed = futures[future]
            try:
                stats = future.result()
            except Failure as failure:
                failures.append((seed, failure))
                print("FAIL seed %d: %s: %s" % (seed, failure.kind,
                                                failure.detail[:2000]))
                if args.failures:
                    folder = os.path.join(args.failures, "seed-%d" % seed)
                    os.makedirs(folder, exist_ok=True)
                    for name, text in failure.files.items():
                        with open(os.path.join(folder, name), "w") as f:
                            f.write(text)
                continue
            totals["kernels"] += 1
            for key in stats:
                totals[key] += stats[key]
    if args.infer:
        print("differential (inferred): %d kernels passed, %d failed; %d "
              "values run hoisted, %d per value; %d runs; %d spec.params "
              "inferred, %d hoisted; %.1f s"
              % (totals["kernels"], len(failures), totals["values"],
                 totals["per_value"], totals["runs"], totals["inferred"],
                 totals["hoisted"], time.time() - begin))
        return 1 if failures else 0
    print("differential: %d kernels passed, %d failed; %d values, %d runs; "
          "%d parameters hoisted (%d via equals), %d kept; %d launcher chains "
          "(%d with a launcher taken), %d runs of a whole chain; %d code "
          "objects of the gpu.func forms; %.1f s"
          % (totals["kernels"], len(failures), totals["values"], totals["runs"],
             totals["hoisted"], totals["equals"], totals["kept"],
             totals["chains"], totals["taken"], totals["chain_runs"],
             totals["lowered"], time.time() - begin))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
