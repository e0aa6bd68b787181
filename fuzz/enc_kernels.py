"""encoding_exhaustive.py's kernels: one per kind, type and literal, hoisted
and specialized in parallel through fly-opt."""

import concurrent.futures
import json
import os
import re
import resource
import shutil
import subprocess
from enc_values import BASE, BOUNDS, LOW_BITS, RUN_MEMORY, RUN_SECONDS, SLOTS, SMALL_WIDTHS, WIDE, admits, literals, manifest_facts, patterns, signed, strongest_divisor, width  # noqa: F401


def func_kernel(name, param, ty, literal):
    """A func.func kernel whose loads show any difference in `param`'s value,
    and its host."""
    bits = width(ty)
    t = ty
    lines = ["  func.func @k%s(%%tab: memref<?xi64>, %%out: memref<?xi64>, "
             "%%e: %s) attributes {spec.kernel} {" % (name, t),
             '    %%w = spec.param "%s" = %d : %s' % (param, literal, t),
             "    %%base = arith.constant %d : index" % BASE,
             "    %c5 = arith.constant 5 : index"]
    for k in range(SLOTS):
        lines.append("    %%s%d = arith.constant %d : index" % (k, k))
    if ty == "index":
        lines += ["    %ws = arith.addi %w, %s0 : index",
                  "    %es = arith.addi %e, %s0 : index",
                  "    %wz = arith.addi %w, %s0 : index",
                  "    %ez = arith.addi %e, %s0 : index"]
    else:
        lines += ["    %%ws = arith.index_cast %%w : %s to index" % t,
                  "    %%es = arith.index_cast %%e : %s to index" % t,
                  "    %%wz = arith.index_castui %%w : %s to index" % t,
                  "    %%ez = arith.index_castui %%e : %s to index" % t]
    lines += ["    %ds = arith.subi %ws, %es : index",
              "    %i0 = arith.addi %ds, %base : index",
              "    %dz = arith.subi %wz, %ez : index",
              "    %i1 = arith.addi %dz, %base : index",
              "    %%dt = arith.subi %%w, %%e : %s" % t]
    if ty == "index":
        lines += ["    %t16 = arith.index_cast %dt : index to i16",
                  "    %i2 = arith.index_castui %t16 : i16 to index"]
    elif bits > 16:
        lines += ["    %%t16 = arith.trunci %%dt : %s to i16" % t,
                  "    %i2 = arith.index_castui %t16 : i16 to index"]
    else:
        lines += ["    %%i2 = arith.index_castui %%dt : %s to index" % t]
    lines += ["    %m5 = arith.muli %ds, %c5 : index",
              "    %i5 = arith.addi %m5, %base : index"]
    slots = ["%i0", "%i1", "%i2", None, None, "%i5"] + [None] * LOW_BITS
    if ty != "index" and bits <= 16:
        lines += ["    %i3 = arith.addi %ws, %base : index"]
        slots[3], slots[4] = "%i3", "%wz"
    for k in range(1, min(LOW_BITS, bits - 1) + 1):
        cast = "arith.index_cast" if ty == "index" else "arith.trunci"
        lines += ["    %%lo%d = %s %%w : %s to i%d" % (k, cast, t, k),
                  "    %%l%d = arith.index_castui %%lo%d : i%d to index" % (k, k, k)]
        slots[5 + k] = "%%l%d" % k
    for k, index in enumerate(slots):
        if index is None:
            continue
        lines += ["    %%v%d = memref.load %%tab[%s] : memref<?xi64>" % (k, index),
                  "    memref.store %%v%d, %%out[%%s%d] : memref<?xi64>" % (k, k)]
    lines += ["    return", "  }",
              "  func.func @h%s(%%tab: memref<?xi64>, %%out: memref<?xi64>, "
              "%%e: %s) {" % (name, t),
              "    func.call @k%s(%%tab, %%out, %%e) : (memref<?xi64>, "
              "memref<?xi64>, %s) -> ()" % (name, t),
              "    return", "  }"]
    return "\n".join(lines)


def llvm_kernel(name, param, ty, literal):
    """The same kernel in the LLVM dialect only (llvm.func kernel and host)."""
    bits = width(ty)
    t = ty
    lines = ["  llvm.func @k%s(%%tab: !llvm.ptr, %%out: !llvm.ptr, %%e: %s) "
             "attributes {spec.kernel} {" % (name, t),
             '    %%w = spec.param "%s" = %d : %s' % (param, literal, t),
             "    %%base = llvm.mlir.constant(%d : i64) : i64" % BASE,
             "    %c5 = llvm.mlir.constant(5 : i64) : i64"]
    if bits == 64:
        lines += ["    %ws = llvm.add %w, %base : i64",
                  "    %es = llvm.add %e, %base : i64",
                  "    %wz = llvm.add %w, %base : i64",
                  "    %ez = llvm.add %e, %base : i64"]
    else:
        lines += ["    %%ws = llvm.sext %%w : %s to i64" % t,
                  "    %%es = llvm.sext %%e : %s to i64" % t,
                  "    %%wz = llvm.zext %%w : %s to i64" % t,
                  "    %%ez = llvm.zext %%e : %s to i64" % t]
    lines += ["    %ds = llvm.sub %ws, %es : i64",
              "    %i0 = llvm.add %ds, %base : i64",
              "    %dz = llvm.sub %wz, %ez : i64",
              "    %i1 = llvm.add %dz, %base : i64",
              "    %%dt = llvm.sub %%w, %%e : %s" % t]
    if bits > 16:
        lines += ["    %%t16 = llvm.trunc %%dt : %s to i16" % t,
                  "    %i2 = llvm.zext %t16 : i16 to i64"]
    else:
        lines += ["    %%i2 = llvm.zext %%dt : %s to i64" % t]
    lines += ["    %m5 = llvm.mul %ds, %c5 : i64",
              "    %i5 = llvm.add %m5, %base : i64"]
    slots = ["%i0", "%i1", "%i2", None, None, "%i5"] + [None] * LOW_BITS
    if bits <= 16:
        lines += ["    %i3 = llvm.add %ws, %base : i64"]
        slots[3], slots[4] = "%i3", "%wz"
    for k in range(1, min(LOW_BITS, bits - 1) + 1):
        lines += ["    %%lo%d = llvm.trunc %%w : %s to i%d" % (k, t, k),
                  "    %%l%d = llvm.zext %%lo%d : i%d to i64" % (k, k, k)]
        slots[5 + k] = "%%l%d" % k
    for k, index in enumerate(slots):
        if index is None:
            continue
        lines += ["    %%p%d = llvm.getelementptr %%tab[%s] : (!llvm.ptr, i64) "
                  "-> !llvm.ptr, i64" % (k, index),
                  "    %%v%d = llvm.load %%p%d : !llvm.ptr -> i64" % (k, k),
                  "    %%o%d = llvm.getelementptr %%out[%d] : (!llvm.ptr) "
                  "-> !llvm.ptr, i64" % (k, k),
                  "    llvm.store %%v%d, %%o%d : i64, !llvm.ptr" % (k, k)]
    lines += ["    llvm.return", "  }",
              "  llvm.func @h%s(%%tab: !llvm.ptr, %%out: !llvm.ptr, %%e: %s) {"
              % (name, t),
              "    llvm.call @k%s(%%tab, %%out, %%e) : (!llvm.ptr, !llvm.ptr, %s)"
              " -> ()" % (name, t),
              "    llvm.return", "  }"]
    return "\n".join(lines)


KERNEL = {"func": func_kernel, "llvm": llvm_kernel}


def kinds_and_types():
    for kind in ("func", "llvm"):
        for bits in SMALL_WIDTHS:
            yield kind, "i%d" % bits
        for ty in WIDE[kind]:
            yield kind, ty


class Tools:
    def __init__(self, args, workdir):
        self.fly_opt = args.fly_opt
        self.runner = args.mlir_runner
        self.workdir = workdir
        libs = args.runner_libs or os.path.join(os.path.dirname(os.path.dirname(
            os.path.realpath(shutil.which(self.runner) or self.runner))), "lib")
        self.runner_args = [
            "-e", "main", "-entry-point-result=void",
            "-shared-libs=%s/libmlir_c_runner_utils.so" % libs]

    def fly(self, text, flags, what):
        proc = subprocess.run([self.fly_opt, "--mlir-print-local-scope"] + flags,
                              input=text,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            path = os.path.join(self.workdir, re.sub(r"\W", "_", what) + ".mlir")
            with open(path, "w") as f:
                f.write(text)
            raise SystemExit("error: fly-opt failed (%s), input in %s:\n%s"
                             % (what, path, proc.stderr[-4000:]))
        return proc.stdout

    def run(self, lowered, level):
        """Runs a lowered batch; a program made wrong by a broken encoding can
        loop or grow without end, so each run is bounded in time and memory
        (a run past either counts as a crash)."""
        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (RUN_MEMORY, RUN_MEMORY))
        try:
            proc = subprocess.run([self.runner] + self.runner_args + [level],
                                  input=lowered, capture_output=True, text=True,
                                  timeout=RUN_SECONDS, preexec_fn=limit)
        except subprocess.TimeoutExpired:
            return -1, "", "timed out after %d s" % RUN_SECONDS
        return proc.returncode, proc.stdout, proc.stderr


def parallel_map(function, items, jobs):
    """list(map(function, items)) on `jobs` threads. The first error is
    raised at once and the work not started yet is dropped: a tool that
    fails fails the check now, not after every other job has run."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        return list(pool.map(function, items))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def top_level_functions(text):
    """{symbol: text} of the module's top-level functions, as printed."""
    out, name, body = {}, None, []
    for line in text.splitlines():
        if name is None:
            m = re.match(r"^  (?:func|llvm)\.func (?:\w+ )?@([\w$.]+)\(", line)
            if m:
                name, body = m.group(1), [line]
            continue
        body.append(line)
        if line == "  }":
            out[name] = "\n".join(body)
            name = None
    return out


class Kernel:
    """One marked kernel hoisted under one option set."""
    __slots__ = ("kind", "ty", "literal", "bound", "narrow", "preconditions")

    def __init__(self, kind, ty, literal, bound, narrow):
        self.kind, self.ty, self.literal = kind, ty, literal
        self.bound, self.narrow = bound, narrow
        self.preconditions = None

    def describe(self):
        return "%s %s M=%d divisibility=%d%s" % (
            self.kind, self.ty, self.literal, self.bound,
            " narrow-range" if self.narrow else "")


def hoist_all(tools, jobs):
    """Hoists every (kind, type, literal) under every option set. Returns the
    kernels and the distinct hoisted programs:
    {(kind, ty, text, preconditions): [Kernel, ...]}."""
    entries = []
    for kind, ty in kinds_and_types():
        for literal in literals(ty):
            entries.append((kind, ty, literal))
    module = ["module {"]
    for n, (kind, ty, literal) in enumerate(entries):
        module.append(KERNEL[kind](str(n), "p%d" % n, ty, literal))
    module.append("}")
    source = "\n".join(module) + "\n"

    def one(bound, narrow):
        manifest = os.path.join(tools.workdir, "manifest-%d-%d.json"
                                % (bound, narrow))
        flags = "remarks=false hoist-into-host divisibility=%d%s manifest=%s" % (
            bound, " narrow-range" if narrow else "", manifest)
        # The records are read from the manifest the pass writes; the
        # printed module goes on without them (they name the launch sites'
        # locations: programs that differ only there are one program).
        out = tools.fly(source, ["--hoist-stride-specialization=" + flags,
                                 "--strip-hoist-records"],
                        "hoist divisibility=%d narrow=%d" % (bound, narrow))
        with open(manifest) as f:
            return out, json.load(f)

    options = [(b, n) for b in BOUNDS for n in (False, True)]
    results = parallel_map(lambda o: one(*o), options, jobs)

    kernels, programs, problems = [], {}, []
    for (bound, narrow), (out, manifest) in zip(options, results):
        functions = top_level_functions(out)
        records = {k["symbol"]: k for k in manifest["kernels"]}
        for n, (kind, ty, literal) in enumerate(entries):
            kernel = Kernel(kind, ty, literal, bound, narrow)
            kernels.append(kernel)
            record = records.get("@k%d" % n)
            hoisted = record["hoisted"] if record else []
            if (len(hoisted) != 1 or hoisted[0]["source"] != "argument"
                    or hoisted[0]["argument"] != 3
                    or hoisted[0]["host_argument"] != 3):
                problems.append("%s: not hoisted to kernel argument 3 and host "
                                "argument 3: %s" % (kernel.describe(), record))
                continue
            kernel.preconditions = manifest_facts(hoisted[0]["preconditions"])
            expected = strongest_divisor(signed(literal, width(ty)), bound,
                                         width(ty))
            recorded = next((fact["divisor"]
                             for fact in hoisted[0]["preconditions"]
                             if fact["kind"] == "divisible-by"), 1)
            if recorded != expected:
                problems.append("%s: divisor %d recorded, %d expected (the "
                                "largest power of two <= divisibility and "
                                "2^(bits-1) dividing the marked value)"
                                % (kernel.describe(), recorded, expected))
            if not admits(kernel.preconditions, signed(literal, width(ty))):
                problems.append("%s: the marked value does not meet the recorded "
                                "preconditions %s" % (kernel.describe(),
                                                      list(kernel.preconditions)))
            text = functions["k%d" % n] + "\n" + functions["h%d" % n]
            if "spec.param" in text:
                problems.append("%s: a spec.param is left" % kernel.describe())
            text = re.sub(r"@([kh])%d\b" % n, r"@\1G", text)
            text = text.replace('"p%d"' % n, '"pG"')
            programs.setdefault((kind, ty, text, kernel.preconditions),
                                []).append(kernel)
    return kernels, programs, problems


def specialize_all(tools):
    """The programs specialized on every test value: {(kind, ty): [(row, V)]}
    and the materialized functions' text."""
    rows, module, n = {}, ["module {"], 0
    for kind, ty in kinds_and_types():
        rows[(kind, ty)] = []
        for value in patterns(ty):
            module.append(KERNEL[kind]("s%d" % n, "s%d" % n, ty, value))
            rows[(kind, ty)].append((n, value))
            n += 1
    module.append("}")
    out = tools.fly("\n".join(module) + "\n", ["--materialize-specialization"],
                    "materialize")
    return rows, top_level_functions(out)
