#!/usr/bin/env python3
"""Differential check of the no-annotation JIT route: trace matching.

For each kernel of gen_kernels.py, in two forms (`arith`: the host-level
kernel, its `equals` parameters left as they are; `llvm`: the same lowered
to the LLVM dialect, as a FlyDSL-shaped kernel reaches flyhoist, with nsw
and GEP flags), marked `spec.kernel` so that the kernel alone is a trace:
  1. trace it at two values (spec.params materialized into constants),
     infer a template (fly-opt --infer-spec-params) and hoist it;
  2. trace a third value and make every one-mutation variant of it
     (jit_mutate.py: attributes, properties, root-module attributes, types,
     region structure, each use of each constant, equals values); a mutant
     that does not verify is discarded;
  3. match each mutant against the template (fly-opt --match-spec-params);
     a rejected mutant is fine (it compiles for itself), and so is one whose
     kept values changed (it compiles per value). Each other one the match
     accepts is checked against its own specialized compile:
       output  the hoisted template launched with the matched values prints
               what the mutant's own compile prints (mlir-runner, -O0, -O3);
       ir      the mutant, specialized and canonicalized, is the template
               specialized at the matched values (what the compile reads,
               constants placed one way: nsw that no value here overflows
               is still another kernel);
       object  their code objects (a gpu.module form, fuzz/lowering.py,
               gfx942) are the same bytes;
     and, for every mutant that verifies, accepted or not:
       key     a mutant whose code-object key (the gpu.module fingerprints
               through python/flyhoist, as KernelCache keys objects for one
               target) equals the unmutated trace's has the same object.
Any failed check is an escape. Prints counts per form and level and a
summary; failing inputs go to --failures DIR (match.mlir is the fly-opt
--match-spec-params reproducer, what.txt says what failed). Exit status 1
on an escape or a kernel that could not be set up.
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import sys
import tempfile
import time

import differential
import gen_kernels
import jit_mutate
from differential import Failure, OPT_LEVELS, run
from jit_forms import (Keys, Tools, add_lines, canonical, code_object,
                       gpu_form, harness, trace_text)

COUNTS = ["mutants", "discarded", "identical", "rejected", "accepted",
          "per_value", "unrunnable", "objects", "keys", "escapes", "output",
          "object", "key", "ir", "leaf", "known"]


# -- One kernel, one form ---------------------------------------------------------

class Form:
    """A kernel's template in one form and what checking a trace needs."""

    def __init__(self, tools, keys, kernel, form, traces):
        self.tools, self.keys, self.kernel, self.form = tools, keys, kernel, form
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "trace-1.mlir")
            with open(path, "w") as f:
                f.write(traces[1])
            rc, self.template, err = run(
                [tools.fly_opt, "--mlir-print-local-scope",
                 "--infer-spec-params=traces=" + path], traces[0])
        if rc != 0:
            raise Failure("inference failed (%s form)" % form, err,
                          {"trace-0.mlir": traces[0], "trace-1.mlir": traces[1]})
        self.hoisted, manifest = tools.hoist(
            self.template, "remarks=false", "hoisting the template",
            ["--mlir-print-local-scope"])
        entries = differential.hoisted_entries(manifest) or []
        self.with_argument = sorted((e for e in entries if e[1] is not None),
                                    key=lambda e: e[1])
        self.kept = dict(differential.kept_values(manifest))
        self.hoisted_names = [e[0] for e in entries]

    def match(self, trace):
        """The matched {name: value}, or None when the match rejects."""
        matched, _, _ = differential.match_trace(self.tools,
                                                 self.match_input(trace))
        return matched

    def match_input(self, trace):
        return "module {\n%s\n%s\n}\n" % (self.template, trace)

    def equals_value(self, trace):
        """The value of the trace's first `equals` parameter, as the library
        reads it (the harness gives every one that value); 1 when it has
        none."""
        return next((p["value"] for p in self.keys.spec_params(trace)
                     if p["equals"]), 1)

    def outputs(self, trace, matched):
        """{level: (specialized output, launched output)}, or None when the
        trace's own compile does not lower."""
        eq = self.equals_value(trace)
        extra = [(e[2], matched[e[0]]) for e in self.with_argument]
        own = add_lines(trace, harness(self.tools, self.kernel, self.form, eq, []))
        launched = add_lines(self.hoisted, harness(self.tools, self.kernel,
                                                   self.form, eq, extra))
        result = {}
        for level in OPT_LEVELS:
            try:
                want = self.tools.execute(own, "specialized", level)
            except Failure as failure:
                if failure.kind.startswith("fly-opt"):
                    return None, own, launched
                want = "<%s>" % failure.kind
            try:
                got = self.tools.execute(launched, "launched", level)
            except Failure as failure:
                got = "<%s: %s>" % (failure.kind, failure.detail[:300])
            result[level] = (want, got)
        return result, own, launched

    def at_values(self, matched):
        """The template specialized at `matched`."""
        return re.sub(r'spec\.param "(\w+)" = (-?\d+) :',
                      lambda m: 'spec.param "%s" = %d :' % (
                          m.group(1), matched.get(m.group(1), int(m.group(2)))),
                      self.template)


def check_mutant(shape, keys, stats, level, what, text, base):
    """Counts one mutant; returns (escape description, files) or None."""
    tools = shape.tools
    row = stats[level]
    row["mutants"] += 1
    rc, trace, _ = run([tools.fly_opt, "--mlir-print-local-scope"], text)
    if rc != 0:
        row["discarded"] += 1
        return None
    if trace == base["trace"]:
        row["identical"] += 1
        return None
    files = {"mutant.mlir": trace, "trace.mlir": base["trace"],
             "template.mlir": shape.template, "hoisted.mlir": shape.hoisted,
             "match.mlir": shape.match_input(trace)}
    problems = []
    gpu = gpu_form(trace)
    obj = code_object(tools.fly_opt, gpu)
    if obj is not None and base["object"] is not None:
        row["keys"] += 1
        key = keys.key(gpu)
        if key is not None and key == base["key"] and obj != base["object"]:
            problems.append(("key", "same code-object key as the unmutated "
                             "trace, different object"))
            files["gpu-mutant.mlir"] = gpu
            files["gpu-trace.mlir"] = base["gpu"]
    matched = shape.match(trace)
    if matched is None:
        row["rejected"] += 1
    else:
        row["accepted"] += 1
        if any(n in matched and matched[n] != v for n, v in shape.kept.items()):
            row["per_value"] += 1
        else:
            problems += accepted_problems(shape, row, trace, matched, obj, files)
    if problems:
        kinds = {k for k, _ in problems}
        for kind in kinds:
            row[kind] += 1
        if kinds <= shape.known:
            row["known"] += 1
            return None
        row["escapes"] += 1
        return "%s: %s" % (what, "; ".join(p for _, p in problems)), files
    return None


def accepted_problems(shape, row, trace, matched, obj, files):
    outputs, own, launched = shape.outputs(trace, matched)
    if outputs is None:
        row["unrunnable"] += 1
        return []
    problems = [("output", "launched template prints other output than the "
                 "mutant's own compile at %s (matched %s)" % (level, matched))
                for level, (want, got) in outputs.items() if want != got]
    if problems:
        files.update({"specialized.mlir": own, "launched.mlir": launched})
    expected = shape.at_values(matched)
    if canonical(shape.tools, trace) != canonical(shape.tools, expected):
        leaf = (canonical(shape.tools, trace, False) ==
                canonical(shape.tools, expected, False))
        problems.append(("leaf", "only a discardable attribute of a constant "
                         "differs from the template's") if leaf else
                        ("ir", "its IR differs from the template's at the "
                         "matched values %s (canonicalized)" % matched))
        files["template-at-values.mlir"] = expected
    if obj is not None:
        row["objects"] += 1
        expected = gpu_form(expected)
        if code_object(shape.tools.fly_opt, expected) != obj:
            problems.append(("object", "code object differs from the "
                             "template's at the matched values %s" % matched))
            files.update({"gpu-mutant.mlir": gpu_form(trace),
                          "gpu-template-at-values.mlir": expected})
    return problems


def test_kernel(tools, keys, seed, per_level, known):
    rng = random.Random(seed)
    kernel = gen_kernels.generate(rng)
    base = gen_kernels.random_values(rng, kernel)
    fixed = {p.name for p in kernel.params if p.equals}
    movable = differential.used_params(kernel) - kernel.blocked - fixed
    # The second trace moves every parameter (so that inference sees each
    # vary); the third only those the template hoists, so that it is served.
    draw = lambda names: {n: (rng.choice([x for x in range(
        1, gen_kernels.PMAX + 1) if x != v]) if n in names else v)
                          for n, v in base.items()}
    values = [base, draw(set(base) - fixed), draw(movable)]
    stats = {f: {l: collections.Counter() for l in jit_mutate.LEVELS}
             for f in ("arith", "llvm")}
    escapes = []
    for form in ("arith", "llvm"):
        traces = [trace_text(tools, kernel, v, form) for v in values]
        shape = Form(tools, keys, kernel, form, traces)
        shape.known = known
        gpu = gpu_form(traces[2])
        info = {"trace": traces[2], "gpu": gpu,
                "object": code_object(tools.fly_opt, gpu),
                "key": keys.key(gpu) if gpu else None}
        # The unmutated trace must match and pass: else the setup is wrong.
        matched = shape.match(traces[2])
        if matched is None:
            raise Failure("the third trace does not match (%s form)" % form, "",
                          {"template.mlir": shape.template,
                           "trace.mlir": traces[2]})
        setup = collections.Counter()
        found = accepted_problems(shape, setup, traces[2], matched,
                                  info["object"], {})
        if found:
            raise Failure("the unmutated trace fails (%s form)" % form,
                          "; ".join(p for _, p in found), {"template.mlir": shape.template,
                                             "trace.mlir": traces[2]})
        generic = tools.opt(traces[2], ["--mlir-print-op-generic",
                                        "--mlir-print-local-scope"], "generic")
        by_level = collections.defaultdict(list)
        for level, what, text in jit_mutate.mutants(generic):
            by_level[level].append((what, text))
        for level in jit_mutate.LEVELS:
            chosen = by_level[level]
            if per_level and len(chosen) > per_level:
                chosen = rng.sample(chosen, per_level)
            for what, text in chosen:
                escape = check_mutant(shape, keys, stats[form], level, what,
                                      text, info)
                if escape:
                    escapes.append((form, level) + escape)
    return stats, escapes


def report(totals, escapes, kernels, failed, seconds):
    for form, levels in totals.items():
        for level in jit_mutate.LEVELS:
            row = levels[level]
            if not row["mutants"]:
                continue
            print("%-5s %-9s %s" % (form, level, ", ".join(
                "%s %d" % (c.replace("_", " "), row[c]) for c in COUNTS)))
    total = collections.Counter()
    for levels in totals.values():
        for row in levels.values():
            total.update(row)
    by_level = collections.Counter("%s/%s" % (e[0], e[1]) for e in escapes)
    print("jit-differential: %d kernels, %d failed to set up; %d mutants, "
          "%d discarded, %d identical, %d accepted (%d per value, %d not "
          "compiled, %d run), %d rejected; %d code objects compared, %d keys; "
          "%d escapes, %d known (%d output, %d object, %d key, %d ir, "
          "%d leaf)%s; %.1f s"
          % (kernels, failed, total["mutants"], total["discarded"],
             total["identical"], total["accepted"], total["per_value"],
             total["unrunnable"],
             total["accepted"] - total["per_value"] - total["unrunnable"],
             total["rejected"], total["objects"], total["keys"],
             total["escapes"], total["known"], total["output"],
             total["object"], total["key"], total["ir"], total["leaf"], ": " + ", ".join("%s %d" % kv for kv in sorted(
                 by_level.items())) if by_level else "", seconds))


def record(failures, seed, found):
    """Prints each escape and writes its files under `failures` (a setup
    failure too); returns the (form, level) of the escapes."""
    escapes = []
    for n, (form, level, what, files) in enumerate(found):
        if form is not None:
            escapes.append((form, level))
            print("ESCAPE seed %d %s/%s: %s" % (seed, form, level, what))
        if not failures:
            continue
        folder = os.path.join(failures, "seed-%d-%s-%s-%d"
                              % (seed, form, level, n))
        os.makedirs(folder, exist_ok=True)
        for name, text in files.items():
            with open(os.path.join(folder, name), "w") as f:
                f.write(text)
        with open(os.path.join(folder, "what.txt"), "w") as f:
            f.write(what + "\n")
    return escapes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fly-opt", default="fly-opt")
    parser.add_argument("--mlir-runner", default="/usr/lib/llvm-22/bin/mlir-runner")
    parser.add_argument("--runner-libs", default=None)
    parser.add_argument("--capi-lib", default=None,
                        help="libFlyHoistMLIRCAPI.so for the keys (default: "
                        "$FLYHOIST_CAPI_LIB, else the package's search)")
    parser.add_argument("--python-path", default=os.path.join(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))), "python"),
        help="folder holding the flyhoist package")
    parser.add_argument("--no-keys", action="store_true",
                        help="skip the code-object key check (the package "
                        "still reads the traces' spec.params)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kernels", type=int, default=4)
    parser.add_argument("--per-level", type=int, default=0,
                        help="at most N mutants per kernel, form and level "
                        "(drawn by the seed; 0: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--failures", default=None)
    parser.add_argument("--known", action="append", default=[],
                        choices=["output", "object", "key", "ir", "leaf"],
                        help="a kind of escape known and reported, counted "
                        "as known instead (repeatable)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    tools, keys = Tools(args), Keys(args)
    totals = {f: {l: collections.Counter() for l in jit_mutate.LEVELS}
              for f in ("arith", "llvm")}
    escapes, failed, begin = [], 0, time.time()
    seeds = [args.seed * 1000003 + n for n in range(args.kernels)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(test_kernel, tools, keys, s, args.per_level,
                               set(args.known)): s
                   for s in seeds}
        for future in concurrent.futures.as_completed(futures):
            seed = futures[future]
            try:
                stats, found = future.result()
            except Failure as failure:
                failed += 1
                print("SETUP FAILED seed %d: %s: %s"
                      % (seed, failure.kind, failure.detail[:500]))
                found, stats = [(None, "setup", failure.kind, failure.files)], {}
            for form, levels in stats.items():
                for level, row in levels.items():
                    totals[form][level].update(row)
            escapes += record(args.failures, seed, found)
    report(totals, escapes, args.kernels, failed, time.time() - begin)
    return 1 if escapes or failed else 0


if __name__ == "__main__":
    sys.exit(main())
