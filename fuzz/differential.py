#!/usr/bin/env python3
"""Differential test of hoist-stride-specialization on random kernels.

For each kernel from gen_kernels.py, marked with values M:
  1. hoist it (fly-opt --hoist-stride-specialization) and read its `#spec.record`;
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
gen_classes.py (issue 26) through its oracles: crash, invalid IR (an op
verifier's error, or output that does not parse again), wrong result (host
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
import random
import re
import shutil
import subprocess
import sys
import time

import gen_classes
import gen_kernels
import lowering

# materialize-specialization first: with materialize-kept=false the kept
# parameters are still spec.params, which the kernel runs with their marked
# values.
LOWER = ["--materialize-specialization", "--expand-strided-metadata",
         "--lower-affine", "--convert-scf-to-cf",
         "--convert-to-llvm", "--reconcile-unrealized-casts",
         "--strip-hoist-records"]

OPTION_SETS = [
    "remarks=false",
    "remarks=false materialize-kept=false",
    "remarks=false divisibility=16",
    "remarks=false divisibility=4 narrow-range=true",
    "remarks=false narrow-range=true",
    "remarks=false divisibility=64 materialize-kept=false",
    "remarks=false hoist-into-host",
    "remarks=false hoist-into-host divisibility=8 narrow-range=true",
    "remarks=false hoist-into-host materialize-kept=false narrow-range=true",
]
OPT_LEVELS = ["-O0", "-O3"]


class Failure(Exception):
    def __init__(self, kind, detail, files):
        super().__init__(kind)
        self.kind, self.detail, self.files = kind, detail, files


def run(cmd, text, timeout=120):
    proc = subprocess.run(cmd, input=text, capture_output=True, text=True,
                          timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


class Tools:
    def __init__(self, args):
        self.fly_opt = args.fly_opt
        self.runner = args.mlir_runner
        # The runtime libraries sit next to mlir-runner's bin/ by default.
        libs = args.runner_libs or os.path.join(os.path.dirname(os.path.dirname(
            os.path.realpath(shutil.which(self.runner) or self.runner))), "lib")
        self.runner_args = [
            "-e", "main", "-entry-point-result=void",
            "-shared-libs=%s/libmlir_runner_utils.so,%s/libmlir_c_runner_utils.so"
            % (libs, libs)]

    def opt(self, text, flags, what):
        rc, out, err = run([self.fly_opt] + flags, text)
        if rc != 0:
            raise Failure("fly-opt failed (%s)" % what, err, {"input.mlir": text})
        return out

    def runnable(self, lowered):
        """The lowered module as mlir-runner is given it."""
        return lowered

    def execute(self, text, what, level="-O0"):
        lowered = self.runnable(self.opt(text, LOWER, "lowering " + what))
        rc, out, err = run([self.runner, level] + self.runner_args, lowered)
        if rc != 0:
            raise Failure("mlir-runner %s failed (%s)" % (level, what), err,
                          {"input.mlir": text})
        # The first line holds the buffer's address, which varies.
        return "\n".join(out.splitlines()[1:])


# -- Lowering to a code object ---------------------------------------------------

def pipeline_options(options):
    """The hoisting pass with `options`, as a --pass-pipeline element; with
    materialize-kept=false the kept parameters are still spec.params, which
    a frontend materializes before lowering, as this does."""
    opts = " ".join(o for o in options.split() if not o.startswith("remarks"))
    return "hoist-stride-specialization{remarks=false%s}%s" % (
        " " + opts if opts else "",
        ",materialize-specialization" if "materialize-kept=false" in opts else "")


def check_lowers(tools, text, options, files):
    """The hoisted module of `text` lowers to a code object on every
    pipeline that applies (fuzz/lowering.py) wherever the materialized one
    does. Returns the number of pipelines lowered."""
    count = 0
    for kind, pipeline in lowering.pipelines_for(text):
        ok, error = lowering.lowers(tools.fly_opt, text, pipeline,
                                    pipeline_options(options))
        if ok:
            count += 1
            continue
        base_ok, _ = lowering.lowers(tools.fly_opt, text, pipeline,
                                     "materialize-specialization")
        if base_ok:
            raise Failure("hoisted module no longer lowers (%s)" % kind,
                          error[-3000:], files)
    return count


# -- Reading the pass's output --------------------------------------------------

ENTRY_RE = re.compile(r'#spec\.hoisted<((?:"[^"]*"|<[^<>]*>|[^<>"])*)>')
FIELD_RE = re.compile(r'(\w+) = ("[^"]*"|\[(?:"[^"]*"|[^\]"])*\]|[^,]+)')


def hoisted_entries(text):
    """(name, argument index or None, type, divisor, narrow) for each hoisted
    entry of @kernel's `#spec.record`: the argument's type, the d of a
    recorded `#spec.divisible_by<d>` (1 if none) and whether the narrow
    `#spec.range<min = 0, max = 2147483647>` is recorded."""
    kernel_line = next((l for l in text.splitlines()
                        if re.search(r"\b(?:func|llvm)\.func @kernel\(", l)), "")
    if "spec.record = #spec.record<" not in kernel_line:
        return None
    entries = []
    for entry in ENTRY_RE.findall(kernel_line):
        fields = {k: v.strip() for k, v in FIELD_RE.findall(entry)}
        name = fields["name"].strip('"')
        arg = int(fields["argument"]) if "argument" in fields else None
        pre = fields.get("preconditions", "")
        divisor = re.search(r"#spec\.divisible_by<(\d+)>", pre)
        entries.append((name, arg, fields["type"],
                        int(divisor.group(1)) if divisor else 1,
                        "#spec.range<min = 0, max = 2147483647>" in pre))
    return entries


def function_text(text, name):
    """The printed lines of func.func @name (custom form)."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines)
                 if l.startswith("  func.func @%s(" % name))
    end = next(i for i in range(start, len(lines)) if lines[i] == "  }")
    return lines, start, end


def signature_types(text, name):
    """The argument types of func.func @name as printed (custom form)."""
    line = next(l for l in text.splitlines()
                if re.match(r"\s*func\.func (?:private )?@%s\(" % name, l))
    inner = line[line.index("(") + 1:line.index(")")]
    return [a.split(": ", 1)[1] for a in inner.split(", ") if a]


def replace_main(text, new_main):
    lines, start, end = function_text(text, "main")
    return "\n".join(lines[:start] + new_main + lines[end + 1:]) + "\n"


# -- The independent checker ----------------------------------------------------

OP_RE = re.compile(r'^\s*(?:(%[\w]+)(?::(\d+))? = )?"([\w.]+)"\((.*?)\)')
BLOCK_RE = re.compile(r"^\s*\^bb\d+\((.*)\):")
PASS_THROUGH = {"arith.addi", "arith.subi", "arith.muli", "arith.index_cast",
                "arith.index_castui", "arith.extsi", "arith.extui",
                "arith.trunci", "affine.apply"}


def check_address_only(generic, arg_index):
    """Returns a list of violations: uses of @kernel's argument `arg_index`
    (followed forward) that are not load/store indices."""
    lines = generic.splitlines()
    # Locate @kernel's body: from its opening line to the matching "})".
    start = next(i for i, l in enumerate(lines)
                 if '"func.func"()' in l and 'sym_name = "kernel"' in l)
    depth, end = 0, start
    for i in range(start, len(lines)):
        depth += lines[i].count("({") - lines[i].count("})")
        if depth == 0:
            end = i
            break
    ops, stack = [], []
    entry_args = None
    for line in lines[start + 1:end + 1]:
        block = BLOCK_RE.match(line)
        if block:
            names = [a.split(":")[0].strip() for a in block.group(1).split(", ")]
            if entry_args is None:
                entry_args = names
            elif stack:
                stack[-1]["blocks"].append(names)
            continue
        m = OP_RE.match(line)
        if m:
            result, count, name, operands = m.groups()
            results = ([result] if result and not count else
                       ["%s#%d" % (result, n) for n in range(int(count))] if result else [])
            op = {"name": name, "operands": [o.strip() for o in operands.split(",") if o.strip()],
                  "results": results, "blocks": [], "parent": stack[-1] if stack else None}
            ops.append(op)
            if line.rstrip().endswith("({"):
                stack.append(op)
        if line.strip().startswith("})") and stack:
            stack.pop()
    tainted = {entry_args[arg_index]}
    # The divisibility fact the pass may add (andi with d - 1, cmpi eq 0,
    # llvm.intr.assume) reads the argument but computes nothing the kernel
    # uses: values on that chain may reach only the chain.
    facts = set()
    violations = []
    changed = True
    while changed:
        changed = False

        def taint(value):
            nonlocal changed
            if value not in tainted:
                tainted.add(value)
                changed = True

        for op in ops:
            for pos, operand in enumerate(op["operands"]):
                name = op["name"]
                if operand in facts:
                    if name == "arith.cmpi":
                        for r in op["results"]:
                            if r not in facts:
                                facts.add(r)
                                changed = True
                    elif name != "llvm.intr.assume":
                        violation = "fact reaches %s operand %d" % (name, pos)
                        if violation not in violations:
                            violations.append(violation)
                    continue
                if operand not in tainted:
                    continue
                if name == "arith.andi":
                    for r in op["results"]:
                        if r not in facts:
                            facts.add(r)
                            changed = True
                elif name in PASS_THROUGH or (name == "arith.shli" and pos == 0):
                    for r in op["results"]:
                        taint(r)
                elif name == "memref.load" and pos >= 1:
                    pass
                elif name == "memref.store" and pos >= 2:
                    pass
                elif name == "scf.for" and pos >= 3:
                    taint(op["blocks"][0][pos - 2])
                    taint(op["results"][pos - 3])
                elif name == "scf.yield" and op["parent"] and op["parent"]["name"] == "scf.for":
                    parent = op["parent"]
                    taint(parent["blocks"][0][pos + 1])
                    taint(parent["results"][pos])
                else:
                    violation = "%s operand %d" % (name, pos)
                    if violation not in violations:
                        violations.append(violation)
    return violations


SELF_TEST_IR = """\
"builtin.module"() ({
  "func.func"() <{function_type = (memref<?xi64>, index, index) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<?xi64>, %arg1: index, %arg2: index):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "arith.muli"(%arg1, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    %2:2 = "scf.for"(%0, %0, %0, %1, %0) ({
    ^bb0(%arg3: index, %arg4: index, %arg5: index):
      %3 = "memref.load"(%arg0, %arg4) : (memref<?xi64>, index) -> i64
      %4 = "arith.addi"(%arg4, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      %5 = "arith.cmpi"(%arg5, %arg2) <{predicate = 2 : i64}> : (index, index) -> i1
      "scf.yield"(%4, %0) : (index, index) -> ()
    }) : (index, index, index, index, index) -> (index, index)
    "memref.store"(%3, %arg0, %2#0) : (i64, memref<?xi64>, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
"""


def self_test():
    """The checker must accept argument 1 (products, iter_args, indices) and
    reject argument 2 (a comparison)."""
    ok = check_address_only(SELF_TEST_IR, 1)
    bad = check_address_only(SELF_TEST_IR, 2)
    if ok or bad != ["arith.cmpi operand 1"]:
        print("checker self-test FAILED: %s / %s" % (ok, bad))
        return False
    return True


# -- One kernel -----------------------------------------------------------------

def launcher_chain(rng, kernel):
    """Host launchers from @main down to @kernel, for hoist-into-host: 1 to 3
    levels, each public or private and calling the level below once or
    twice; with probability 0.3 a `func.constant` takes one level's symbol,
    so that level cannot take a new argument. Returns (the functions' lines,
    the top level's name, whether a level is taken)."""
    types = kernel.kernel_arg_types()
    decl = ", ".join("%%a%d: %s" % (n, t) for n, t in enumerate(types))
    args = ", ".join("%%a%d" % n for n in range(len(types)))
    signature = ", ".join(types)
    lines, callee = [], "kernel"
    depth = rng.randint(1, 3)
    for level in range(1, depth + 1):
        name = "launch%d" % level
        visibility = "private " if rng.random() < 0.5 else ""
        lines.append("  func.func %s@%s(%s) {" % (visibility, name, decl))
        for _ in range(rng.randint(1, 2)):
            lines.append("    call @%s(%s) : (%s) -> ()" % (callee, args, signature))
        lines += ["    return", "  }"]
        callee = name
    taken = rng.random() < 0.3
    if taken:
        lines += ["  func.func private @take() {",
                  "    %%f = func.constant @launch%d : (%s) -> ()"
                  % (rng.randint(1, depth), signature),
                  "    return", "  }"]
    return lines, callee, taken


def divisor_for(value, options):
    """The d the pass records for `value` under `options`: the largest power
    of two up to the divisibility bound that divides it (1 when off)."""
    bound = re.search(r"divisibility=(\d+)", options)
    d = 1
    if bound:
        while d * 2 <= int(bound.group(1)) and value % (d * 2) == 0:
            d *= 2
    return d


def used_params(kernel):
    body = "\n".join(kernel.lines)
    return {p.name for p in kernel.params
            if len(re.findall(r"%s\b" % re.escape(p.ssa), body)) > 1}


def test_kernel(tools, seed, trials, only=""):
    rng = random.Random(seed)
    kernel = gen_kernels.generate(rng)
    marked = gen_kernels.random_values(rng, kernel)
    stats = {"runs": 0, "values": 0, "hoisted": 0, "kept": 0, "equals": 0,
             "chains": 0, "taken": 0, "chain_runs": 0, "lowered": 0}
    option_sets = [o for o in OPTION_SETS if only in o]
    options = option_sets[seed % len(option_sets)]
    # The chain draws from its own generator: the kernel of a seed does not
    # depend on the option set.
    chain, top, taken = [], "kernel", False
    if "hoist-into-host" in options:
        chain, top, taken = launcher_chain(random.Random(seed * 31 + 7), kernel)

    stats["chains"] = int(bool(chain))
    stats["taken"] = int(taken)

    def module_for(values):
        return kernel.module_text(values, host_functions=chain, callee=top)

    source = module_for(marked)
    hoist = ["--hoist-stride-specialization=" + options]
    hoisted = tools.opt(source, hoist, "hoisting")
    entries = hoisted_entries(hoisted)
    if entries is None:
        raise Failure("no #spec.record on @kernel", hoisted, {"input.mlir": source})
    names = {e[0] for e in entries}
    stats["hoisted"] = len(entries)
    stats["kept"] = len(kernel.params) - len(entries)
    stats["equals"] = sum(1 for e in entries if e[1] is None)

    # Decisions against the generator's knowledge.
    expected = used_params(kernel) - kernel.blocked
    if names != expected:
        raise Failure("wrong decision",
                      "hoisted %s, expected %s (blocked: %s)"
                      % (sorted(names), sorted(expected), sorted(kernel.blocked)),
                      {"input.mlir": source, "hoisted.mlir": hoisted})

    # Independent address-only check.
    generic = tools.opt(hoisted, ["--mlir-print-op-generic"], "printing generic")
    for name, arg, *_ in entries:
        if arg is None:
            continue
        violations = check_address_only(generic, arg)
        if violations:
            raise Failure("hoisted parameter reaches a non-address use",
                          "%s: %s" % (name, violations),
                          {"input.mlir": source, "hoisted.mlir": hoisted})

    # The same kernel as a gpu.func must still lower to a code object.
    gpu_text = kernel.gpu_module_text(marked)
    stats["lowered"] = check_lowers(tools, gpu_text, options,
                                    {"input.mlir": gpu_text})

    _, kstart, kend = function_text(hoisted, "kernel")
    kernel_fn = hoisted.splitlines()[kstart:kend + 1]
    equals = [p for p in kernel.params if p.equals]
    with_argument = sorted((e for e in entries if e[1] is not None),
                           key=lambda e: e[1])
    # The new arguments at the top of the launcher chain (hoist-into-host):
    # one per hoisted argument, in the kernel's argument order, unless a
    # launcher on the chain is taken and passes constants of its own.
    top_new = []
    if chain:
        top_new = signature_types(hoisted, top)[len(kernel.kernel_arg_types()):]
        expected_count = 0 if taken else len(with_argument)
        if len(top_new) != expected_count:
            raise Failure("host arguments at the top of the launcher chain",
                          "@%s got %s for hoisted %s (a launcher taken: %s)"
                          % (top, top_new, [e[0] for e in with_argument], taken),
                          {"input.mlir": source, "hoisted.mlir": hoisted})
    for trial in range(trials):
        values = dict(marked)
        if trial > 0:
            # Values the recorded preconditions admit (a multiple of the
            # recorded divisor; all of [1, PMAX] is under 2^31).
            for name, _, _, divisor, _ in entries:
                admitted = range(divisor, gen_kernels.PMAX + 1, divisor)
                values[name] = rng.choice(admitted) if admitted else marked[name]
        stats["values"] += 1
        specialized = tools.opt(module_for(values),
                                ["--materialize-specialization"], "specializing")
        extra = [(e[2], values[e[0]]) for e in with_argument]
        called = replace_main(hoisted, kernel.main_lines(values, equals, extra))
        # The whole program as rewritten: @main passes the values to the
        # top of the chain (with a taken launcher, the chain holds the
        # marked values, so only they can be run).
        whole = None
        if chain and (top_new or trial == 0):
            host_extra = [(t, values[e[0]]) for t, e in zip(top_new, with_argument)]
            whole = replace_main(hoisted, kernel.main_lines(values, equals,
                                                            host_extra, top))
        for level in OPT_LEVELS:
            expected_out = tools.execute(specialized, "specialized", level)

            def must_match(program, what, failure, file_name):
                got = tools.execute(program, what, level)
                stats["runs"] += 1
                if got != expected_out:
                    raise Failure("%s at %s" % (failure, level),
                                  "values %s (marked %s), options %s"
                                  % (values, marked, options),
                                  {"input.mlir": module_for(values),
                                   file_name: program})

            stats["runs"] += 1
            must_match(called, "hoisted",
                       "hoisted output differs from specialized output",
                       "hoisted-called.mlir")
            if whole is not None:
                stats["chain_runs"] += 1
                must_match(whole, "hoisted, launcher chain",
                           "hoisted launcher chain gives different output",
                           "hoisted-whole.mlir")
            elif trial == 0:
                must_match(hoisted, "hoisted, pass-updated call",
                           "pass-updated call site gives different output",
                           "hoisted.mlir")
        if trial > 0 and all(divisor_for(values[e[0]], options) == e[3] for e in entries
                 if e[1] is not None):
            # The divisor is part of the specialization key: values with
            # another one get another kernel, by design. The same one, the
            # same kernel.
            other = tools.opt(module_for(values), hoist, "hoisting")
            _, s, e = function_text(other, "kernel")
            if other.splitlines()[s:e + 1] != kernel_fn:
                raise Failure("kernel not identical across hoisted values",
                              "values %s vs %s" % (values, marked),
                              {"a.mlir": source, "b.mlir": module_for(values)})
    return stats


# -- Inference mode ---------------------------------------------------------------

MATCHED_RE = re.compile(r"remark: matched: (.*)")


def test_kernel_inferred(tools, seed, trials, only=""):
    """--infer: the kernel traced at three values with its spec.params
    materialized (what a frontend that marks nothing emits), the
    spec.params inferred from the traces (infer-spec-params), hoisted, and
    each trace matched against the template (match-spec-params). At each
    value whose kept parameters equal the template's, the hoisted program
    called with the matched values must print what the trace itself prints,
    at -O0 and -O3. A trace whose kept values differ would be compiled for
    its values: counted, not run."""
    import tempfile
    rng = random.Random(seed)
    kernel = gen_kernels.generate(rng)
    stats = {"runs": 0, "values": 0, "per_value": 0, "inferred": 0,
             "hoisted": 0}
    base = gen_kernels.random_values(rng, kernel)
    # The second trace moves only what the generator knows is hoistable, so
    # the template serves it; the third moves everything.
    movable = used_params(kernel) - kernel.blocked
    second = {n: (rng.randrange(1, gen_kernels.PMAX + 1) if n in movable
                  else v) for n, v in base.items()}
    third = gen_kernels.random_values(rng, kernel)
    values_list = [base, second, third][:max(trials, 2)]
    # Without attribute aliases, so that the texts nest in one module.
    traces = [tools.opt(kernel.module_text(v),
                        ["--materialize-specialization",
                         "--mlir-print-local-scope"], "tracing")
              for v in values_list]
    names = " ".join("values=%s=%s" % (n, ":".join(str(v[n])
                                                    for v in values_list))
                     for n in sorted(base))
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for i, text in enumerate(traces[1:]):
            path = os.path.join(folder, "trace-%d.mlir" % (i + 1))
            with open(path, "w") as f:
                f.write(text)
            files.append(path)
        option = "traces=%s" % ",".join(files)
        if names:
            option += " " + names
        rc, template, err = run([tools.fly_opt, "--mlir-print-local-scope",
                                 "--infer-spec-params=" + option], traces[0])
    if rc != 0:
        raise Failure("inference failed on traces of one kernel", err,
                      {"trace-%d.mlir" % i: t for i, t in enumerate(traces)})
    stats["inferred"] = template.count("spec.param")
    hoisted = tools.opt(template, ["--hoist-stride-specialization=remarks=false"],
                        "hoisting the template")
    entries = hoisted_entries(hoisted) or []
    stats["hoisted"] = len(entries)
    kept_names = set(re.findall(r'#spec\.kept<name = "([^"]+)", value = (-?\d+)',
                                hoisted))
    equals = [p for p in kernel.params if p.equals]
    with_argument = sorted((e for e in entries if e[1] is not None),
                           key=lambda e: e[1])
    for values, trace in zip(values_list, traces):
        rc, _, err = run([tools.fly_opt, "--match-spec-params", "-o",
                          os.devnull],
                         "module {\n%s\n%s\n}\n" % (template, trace))
        match = MATCHED_RE.search(err)
        if rc != 0 or not match:
            raise Failure("a trace of the kernel does not match its template",
                          err, {"template.mlir": template, "trace.mlir": trace})
        matched = {}
        if match.group(1) != "no parameters":
            for item in match.group(1).split(", "):
                name, value = item.split(" = ")
                matched[name] = int(value)
        if any(matched.get(n) != int(v) for n, v in kept_names):
            stats["per_value"] += 1
            continue
        stats["values"] += 1
        extra = [(e[2], matched[e[0]]) for e in with_argument]
        called = replace_main(hoisted, kernel.main_lines(values, equals, extra))
        for level in OPT_LEVELS:
            expected_out = tools.execute(trace, "trace", level)
            got = tools.execute(called, "inferred and hoisted", level)
            stats["runs"] += 2
            if got != expected_out:
                raise Failure("inferred-and-hoisted output differs from the "
                              "trace's at %s" % level,
                              "values %s, matched %s" % (values, matched),
                              {"trace.mlir": trace, "template.mlir": template,
                               "hoisted-called.mlir": called})
    return stats


# -- The defect classes of issue 26 (gen_classes.py) -------------------------------

# The oracles, most severe first: an input counts once, under the first.
DEFECTS = ["crash", "invalid IR", "wrong result", "no longer lowers",
           "missed keep", "rejects a valid input", "wrong host arguments",
           "bad divisor"]


def class_defects(tools, case):
    """The defects (kinds of DEFECTS, with details) the oracles find on one
    generated case; an empty list when it passes. Also returns the outcome
    ('hoisted', 'kept', 'rejected')."""
    found = []
    flags = ["--hoist-stride-specialization=" + case.options]
    rc, out, err = run([tools.fly_opt] + flags, case.text)
    if rc < 0 or "Stack dump" in err or "PLEASE submit" in err:
        return [("crash", err[-2000:])], "crashed"
    if rc != 0:
        # An op verifier's message names the op ('x.y' op ...); the pass's
        # own errors do not.
        if re.search(r"error: '[\w.]+' op ", err):
            return [("invalid IR", err[:2000])], "invalid"
        if case.error_ok or not case.must_accept:
            return [], "rejected"
        return [("rejects a valid input", err[:2000])], "rejected"
    rc2, _, err2 = run([tools.fly_opt], out)
    if rc2 != 0:
        found.append(("invalid IR", "the output does not parse again: " + err2[:2000]))
    hoisted = set(re.findall(r"'([\w.]+)' hoisted in kernel", err))
    outcome = "hoisted" if hoisted else "kept"
    if case.runnable and rc2 == 0:
        program = out
        main_args = re.search(r"func\.func @main\(([^)]+)\)", out)
        if main_args and case.main_value is not None:
            # hoist-into-host gave @main the new arguments: run it with the
            # marked value in each.
            consts = "".join("    %s = arith.constant %d : %s\n"
                             % (a.split(": ")[0], case.main_value, a.split(": ")[1])
                             for a in main_args.group(1).split(", "))
            program = re.sub(r"(func\.func @main)\([^)]+\)( \{\n)",
                             lambda m: m.group(1) + "()" + m.group(2) + consts, out)
        for level in OPT_LEVELS:
            try:
                want = tools.execute(case.text, "specialized", level)
            except Failure:
                outcome += ", not run"
                break
            try:
                got = tools.execute(program, "hoisted", level)
            except Failure as failure:
                found.append(("wrong result", "%s: %s" % (failure.kind,
                                                          failure.detail[:1500])))
                break
            if want != got:
                found.append(("wrong result", "at %s: specialized %r, hoisted %r"
                              % (level, want[:200], got[:200])))
                break
    if case.lower and rc2 == 0:
        try:
            check_lowers(tools, case.text, case.options, {})
        except Failure as failure:
            found.append(("no longer lowers", failure.kind + ": " + failure.detail[:1500]))
    missed = sorted(case.kept & hoisted)
    if missed:
        found.append(("missed keep", "%s hoisted; the generator planted a "
                      "blocking role (%s)" % (missed, case.note)))
    if case.host_new_types is not None:
        signature = signature_types(out, "host")
        host = signature[2:]
        if sorted(host) != case.host_new_types:
            found.append(("wrong host arguments",
                          "@host gained %s for one name launched as %s"
                          % (host, case.host_new_types)))
        # Each kernel's record names the host argument of its own type.
        for ty, where in re.findall(r"#spec\.hoisted<name = \"\w+\", type = (\w+), "
                                    r"argument = \d+, host_argument = (\d+)", out):
            if int(where) >= len(signature) or signature[int(where)] != ty:
                found.append(("wrong host arguments",
                              "a record names host argument %s for type %s; "
                              "@host takes %s" % (where, ty, signature)))
    if case.divisor_value is not None:
        for d in re.findall(r"#spec\.divisible_by<(-?\d+)>", out):
            d = int(d)
            if d <= 1 or d & (d - 1) or case.divisor_value % d:
                found.append(("bad divisor", "divisor %d recorded for value %d"
                              % (d, case.divisor_value)))
    found.sort(key=lambda f: DEFECTS.index(f[0]))
    return found, outcome


def run_classes(tools, args):
    """--classes N: N inputs of each class; prints a table of inputs and
    defects per class. Returns the number of inputs with a defect."""
    classes = [c for c in gen_classes.CLASSES if args.class_only in c]
    jobs = []
    for cls in classes:
        rng = random.Random("%s-%d" % (cls, args.seed))
        for n in range(args.classes):
            jobs.append((cls, n, gen_classes.generate(cls, rng)))
    table = {c: {"inputs": 0, "defects": 0, "kinds": {}, "outcomes": {}}
             for c in classes}
    begin = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [(job, pool.submit(class_defects, tools, job[2])) for job in jobs]
        for (cls, n, case), future in futures:
            found, outcome = future.result()
            row = table[cls]
            row["inputs"] += 1
            row["outcomes"][outcome] = row["outcomes"].get(outcome, 0) + 1
            if not found:
                continue
            row["defects"] += 1
            kind, detail = found[0]
            row["kinds"][kind] = row["kinds"].get(kind, 0) + 1
            if args.verbose:
                print("DEFECT %s #%d (%s): %s: %s"
                      % (cls, n, case.note, kind, detail.strip().splitlines()[0][:300]
                         if detail.strip() else ""))
            if args.failures:
                folder = os.path.join(args.failures, "%s-%d" % (cls, n))
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, "input.mlir"), "w") as f:
                    if case.options:
                        f.write("// hoist-options: %s\n" % case.options)
                    f.write(case.text)
                with open(os.path.join(folder, "defects.txt"), "w") as f:
                    for k, d in found:
                        f.write("%s: %s\n\n" % (k, d))
    total = 0
    for cls in classes:
        row = table[cls]
        total += row["defects"]
        print("class %-12s %3d inputs, %3d with a defect%s; outcomes: %s"
              % (cls, row["inputs"], row["defects"],
                 " (%s)" % ", ".join("%d %s" % (v, k) for k, v in
                                     sorted(row["kinds"].items()))
                 if row["kinds"] else "",
                 ", ".join("%d %s" % (v, k) for k, v in sorted(row["outcomes"].items()))))
    print("classes: %d inputs, %d with a defect; %.1f s"
          % (len(jobs), total, time.time() - begin))
    return total


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
