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
import concurrent.futures
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

LOWER = ["--convert-scf-to-cf", "--expand-strided-metadata",
         "--convert-to-llvm", "--reconcile-unrealized-casts",
         "--strip-hoist-records"]
BOUNDS = [1 << k for k in range(10)]
OPT_LEVELS = ["-O0", "-O3"]
LOW_BITS = 9  # the value's low 1..9 bits, each loaded through its own slot
SLOTS = 6 + LOW_BITS  # words of `out` a kernel writes
WORDS = 16  # words of `out` compared
PART_LINES = 400  # lines of driver code per function (see driver())
TABLE = 1 << 17
BASE = 1 << 16
SENTINEL = 0x0DDC0FFEE
RUN_SECONDS = 600
RUN_MEMORY = 4 << 30
PRINT_LIMIT = 20000  # FAIL lines one run prints
SMALL_WIDTHS = list(range(1, 9))
WIDE = {"func": ["i32", "i64", "index"], "llvm": ["i32", "i64"]}


def width(ty):
    return 64 if ty == "index" else int(ty[1:])


def signed(value, bits):
    """`value`'s bit pattern in `bits` bits, read as a signed integer."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


# -- Values ---------------------------------------------------------------------

def wide_patterns(bits):
    """Edge values of a wide type, as distinct signed patterns."""
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    raw = [0, 1, -1, 2, -2, 3, lo, hi, lo + 1, hi - 1,
           (1 << 31) - 1, 1 << 31, (1 << 31) + 1, (1 << 32) - 1, 1 << 32,
           (1 << 32) + 1, -(1 << 31), -(1 << 31) - 1, -(1 << 32), 96, 200]
    for k in range(1, 10):
        d = 1 << k
        raw += [d, -d, 3 * d, -3 * d, (1 << 31) - d, (1 << 31) + d,
                -(1 << 31) + d, -(1 << 31) - d, (1 << 32) - d, (1 << 32) + d,
                lo + d, hi - d + 1]
    out = []
    for v in raw:
        s = signed(v, bits)
        if s not in out:
            out.append(s)
    return out


def patterns(ty):
    bits = width(ty)
    if ty != "index" and bits <= 8:
        return [signed(v, bits) for v in range(1 << bits)]
    return wide_patterns(bits)


def literals(ty):
    """Marked values M: every spelling the spec.param verifier accepts for
    each pattern (the unsigned one too, while it fits an i64 attribute)."""
    bits = width(ty)
    out = []
    for s in patterns(ty):
        out.append(s)
        if s < 0 and ty != "index" and bits < 64:
            out.append(s + (1 << bits))
    return out


# -- Preconditions ---------------------------------------------------------------

PRECONDITION = re.compile(
    r"^value(?: % (?P<mod>\d+) == 0| (?P<op><=|>=|<|>|==|!=) (?P<bound>-?\d+))$")
# The interval form the encoding used to record.
INTERVAL = re.compile(r"^(?P<lo>-?\d+) <= value < (?P<hi>-?\d+)$")


def manifest_facts(objects):
    """The manifest's precondition objects (the first, the range of the
    argument's type, left out) in the text forms admits() reads. Raises on a
    kind this checker does not know."""
    facts = []
    for fact in objects[1:]:
        if fact["kind"] == "divisible-by":
            facts.append("value %% %d == 0" % fact["divisor"])
        elif fact["kind"] == "range":
            facts.append("%d <= value < %d" % (fact["min"], fact["max"] + 1))
        else:
            raise SystemExit("error: unknown precondition kind %r" % fact)
    return tuple(facts)


def record_facts(attrs):
    """The `#spec.hoisted` preconditions text `attrs` in admits()'s forms."""
    facts = []
    for m in re.finditer(r"#spec\.divisible_by<(\d+)>|"
                         r"#spec\.range<min = (-?\d+), max = (-?\d+)>|"
                         r"#spec\.\w+<", attrs):
        if m[1]:
            facts.append("value %% %s == 0" % m[1])
        elif m[2]:
            facts.append("%s <= value < %d" % (m[2], int(m[3]) + 1))
        else:
            facts.append(m[0])
    return facts


def admits(preconditions, value):
    """Whether `value` (signed, as the type reads it) meets every recorded
    precondition. A form this checker does not know is an error: it must
    not silently admit or reject."""
    for text in preconditions:
        m = PRECONDITION.match(text)
        interval = INTERVAL.match(text)
        if interval:
            if not int(interval["lo"]) <= value < int(interval["hi"]):
                return False
            continue
        if not m:
            raise SystemExit("error: unknown precondition form %r" % text)
        if m["mod"]:
            if value % int(m["mod"]) != 0:
                return False
            continue
        bound = int(m["bound"])
        holds = {"<=": value <= bound, ">=": value >= bound, "<": value < bound,
                 ">": value > bound, "==": value == bound,
                 "!=": value != bound}[m["op"]]
        if not holds:
            return False
    return True


# -- Kernels ---------------------------------------------------------------------

def strongest_divisor(value, bound, bits):
    """The divisor the record must keep under divisibility=bound: the largest
    power of two at most bound (and 2^(bits-1), the largest the type holds
    as a positive value) that divides the marked value. A smaller one is a
    weaker contract than the option asks for, a larger one an unsound one."""
    cap = min(bound, 1 << max(bits - 1, 0))
    d = 1
    while d * 2 <= cap and value % (d * 2) == 0:
        d *= 2
    return d


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


# -- Tools -----------------------------------------------------------------------

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


def without_records(text):
    """`text` without its `spec.record = #spec.record<...>` attributes (and
    the comma that joined one to another attribute)."""
    out, start = [], 0
    for m in re.finditer(r"(, )?spec\.record = #spec\.record<", text):
        if m.start() < start:
            continue
        depth, i, quoted = 1, m.end(), False
        while depth:
            c = text[i]
            if c == '"' and text[i - 1] != "\\":
                quoted = not quoted
            elif not quoted and c == "<":
                depth += 1
            elif not quoted and c == ">":
                depth -= 1
            i += 1
        out.append(text[start:m.start()])
        start = i
    out.append(text[start:])
    return "".join(out).replace("attributes {}", "").replace("{, ", "{")


# -- The check -------------------------------------------------------------------

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
        out = tools.fly(source, ["--hoist-stride-specialization=" + flags],
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
            record_attr = re.search(r"preconditions = \[([^\]]*)\]", text)
            if record_attr and record_facts(record_attr.group(1)) != \
                    list(kernel.preconditions):
                problems.append("%s: spec.hoisted preconditions %s differ from "
                                "the manifest's %s" % (kernel.describe(),
                                                       record_attr.group(1),
                                                       list(kernel.preconditions)))
            # The record names the source locations of the launch sites:
            # programs that differ only there are one program.
            text = without_records(text)
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


def driver(batch, spec_rows, spec_text):
    """A module running one batch: the specialized programs of its types,
    its distinct hoisted programs, and a main comparing them.

    batch: [(group id, (kind, ty, text, preconditions), [row, ...])]."""
    types = sorted({(key[0], key[1]) for _, key, _ in batch})
    rows = [r for kt in types for r in spec_rows[kt]]
    slot_of = {row: i for i, (row, _) in enumerate(rows)}
    out = ["module {"]
    for row, _ in rows:
        out += [spec_text["ks%d" % row], spec_text["hs%d" % row]]
    for gid, key, _ in batch:
        out.append(key[2].replace("@kG", "@kg%d" % gid)
                   .replace("@hG", "@hg%d" % gid))
    out.append('  memref.global "private" constant @values : memref<%dxi64> = '
               "dense<[%s]>" % (len(rows), ", ".join(str(v) for _, v in rows)))
    for gid, _, admitted in batch:
        out.append('  memref.global "private" constant @admitted%d : '
                   "memref<%dxi64> = dense<[%s]>" % (
                       gid, len(admitted),
                       ", ".join(str(slot_of[r]) for r in admitted)))
    out.append(RUNTIME.replace("SENTINEL", str(SENTINEL)).replace("WORDS", str(WORDS))
               .replace("PRINT_LIMIT", str(PRINT_LIMIT)))
    value_count = len(rows)
    # The calls go into functions of at most PART_LINES lines each, that main
    # calls in turn: LLVM's optimizer takes much longer on one huge function.
    parts = [[]]
    counter = [0]

    def emit(lines):
        if len(parts[-1]) >= PART_LINES:
            parts.append([])
        parts[-1].extend(lines)

    def fresh():
        counter[0] += 1
        return "%%x%d" % counter[0]

    def constant(ty, value):
        name = fresh()
        return name, "    %s = arith.constant %d : %s" % (name, value, ty)

    def call(kind, ty, fn, value, extra=""):
        """Clears out, then calls host `fn` with e = value (and value again
        for a hoisted host)."""
        args = "%%%s, %%%s, %s%s" % (
            "tabp" if kind == "llvm" else "tab", "outp" if kind == "llvm" else "out",
            value, extra)
        types_ = ("!llvm.ptr, !llvm.ptr" if kind == "llvm"
                  else "memref<?xi64>, memref<?xi64>") + ", " + ty + (
                      ", " + ty if extra else "")
        op = "llvm.call" if kind == "llvm" else "func.call"
        return ["    func.call @clear(%out) : (memref<?xi64>) -> ()",
                "    %s @%s(%s) : (%s) -> ()" % (op, fn, args, types_)]

    # Expected outputs: each specialized program on its value.
    type_of = {row: kt for kt in types for row, _ in spec_rows[kt]}
    value_of = dict(rows)
    for i, (row, value) in enumerate(rows):
        kind, ty = type_of[row]
        v, define_v = constant(ty, value)
        slot, define_slot = constant("index", i)
        emit([define_v, define_slot] + call(kind, ty, "hs%d" % row, v) + [
            "    func.call @save(%%out, %%expected, %s) : "
            "(memref<?xi64>, memref<?xi64>, index) -> ()" % slot])
    # Each hoisted program on each admitted value, from memory in a loop and
    # as a constant.
    check = ("func.call @check(%%out, %%expected, %s, %s, %%counts) : "
             "(memref<?xi64>, memref<?xi64>, index, i64, memref<2xi64>) -> ()")
    for gid, (kind, ty, _, _), admitted in batch:
        g, define_g = constant("i64", gid)
        n, define_n = constant("index", len(admitted))
        p = fresh()
        if ty == "index":
            convert = "      %v = arith.index_cast %v64 : i64 to index"
        elif ty == "i64":
            convert = "      %v = arith.addi %v64, %z64 : i64"
        else:
            convert = "      %%v = arith.trunci %%v64 : i64 to %s" % ty
        adm = fresh()
        emit([define_g, define_n,
              "    %s = memref.get_global @admitted%d : memref<%dxi64>"
              % (adm, gid, len(admitted)),
              "    scf.for %s = %%c0 to %s step %%c1 {" % (p, n),
              "      %%sl = memref.load %s[%s] : memref<%dxi64>"
              % (adm, p, len(admitted)),
              "      %sli = arith.index_cast %sl : i64 to index",
              "      %%v64 = memref.load %%values[%%sli] : memref<%dxi64>"
              % value_count,
              convert]
             + ["  " + line for line in call(kind, ty, "hg%d" % gid, "%v", ", %v")]
             + ["      " + check % ("%sli", g), "    }"])
        for row in admitted:
            g, define_g = constant("i64", gid)
            v, define_v = constant(ty, value_of[row])
            slot, define_slot = constant("index", slot_of[row])
            emit([define_g, define_v, define_slot]
                 + call(kind, ty, "hg%d" % gid, v, ", " + v)
                 + ["    " + check % (slot, g)])
    signature = ("%%tab: memref<?xi64>, %%out: memref<?xi64>, "
                 "%%expected: memref<?xi64>, %%counts: memref<2xi64>, "
                 "%%values: memref<%dxi64>, %%tabp: !llvm.ptr, %%outp: !llvm.ptr"
                 % value_count)
    arguments = "%tab, %out, %expected, %counts, %values, %tabp, %outp"
    types_ = ("memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<2xi64>, "
              "memref<%dxi64>, !llvm.ptr, !llvm.ptr" % value_count)
    for i, lines in enumerate(parts):
        out += ["  func.func private @part%d(%s) attributes "
                '{passthrough = ["noinline"]} {' % (i, signature),
                "    %c0 = arith.constant 0 : index",
                "    %c1 = arith.constant 1 : index",
                "    %z64 = arith.constant 0 : i64"] + lines + ["    return", "  }"]
    out.append(MAIN_PROLOGUE % {"table": TABLE, "expected": value_count * WORDS,
                                "values": value_count, "words": WORDS})
    out += ["    func.call @part%d(%s) : (%s) -> ()" % (i, arguments, types_)
            for i in range(len(parts))]
    out.append(MAIN_EPILOGUE)
    out.append("}")
    return "\n".join(out) + "\n"


RUNTIME = """\
  func.func @clear(%out: memref<?xi64>) attributes {passthrough = ["noinline"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %words = arith.constant WORDS : index
    %s = arith.constant SENTINEL : i64
    scf.for %k = %c0 to %words step %c1 {
      memref.store %s, %out[%k] : memref<?xi64>
    }
    return
  }
  func.func @save(%out: memref<?xi64>, %expected: memref<?xi64>, %slot: index)
      attributes {passthrough = ["noinline"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %words = arith.constant WORDS : index
    %at = arith.muli %slot, %words : index
    scf.for %k = %c0 to %words step %c1 {
      %v = memref.load %out[%k] : memref<?xi64>
      %i = arith.addi %at, %k : index
      memref.store %v, %expected[%i] : memref<?xi64>
    }
    return
  }
  // Compares out with the expected row `slot`; counts the run and any
  // mismatch, printing FAIL <group> <slot> <word> <got> <want>.
  func.func @check(%out: memref<?xi64>, %expected: memref<?xi64>, %slot: index,
                   %group: i64, %counts: memref<2xi64>)
      attributes {passthrough = ["noinline"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %words = arith.constant WORDS : index
    %one = arith.constant 1 : i64
    %at = arith.muli %slot, %words : index
    %runs = memref.load %counts[%c0] : memref<2xi64>
    %runs1 = arith.addi %runs, %one : i64
    memref.store %runs1, %counts[%c0] : memref<2xi64>
    scf.for %k = %c0 to %words step %c1 {
      %got = memref.load %out[%k] : memref<?xi64>
      %i = arith.addi %at, %k : index
      %want = memref.load %expected[%i] : memref<?xi64>
      %bad = arith.cmpi ne, %got, %want : i64
      scf.if %bad {
        %f = memref.load %counts[%c1] : memref<2xi64>
        %f1 = arith.addi %f, %one : i64
        memref.store %f1, %counts[%c1] : memref<2xi64>
        %limit = arith.constant PRINT_LIMIT : i64
        %print = arith.cmpi slt, %f, %limit : i64
        scf.if %print {
        %s64 = arith.index_cast %slot : index to i64
        %k64 = arith.index_cast %k : index to i64
        vector.print str "FAIL "
        vector.print %group : i64 punctuation <comma>
        vector.print %s64 : i64 punctuation <comma>
        vector.print %k64 : i64 punctuation <comma>
        vector.print %got : i64 punctuation <comma>
        vector.print %want : i64
        }
      }
    }
    return
  }"""

MAIN_PROLOGUE = """\
  func.func @main() {
    %%c0 = arith.constant 0 : index
    %%c1 = arith.constant 1 : index
    %%words = arith.constant %(words)d : index
    %%z64 = arith.constant 0 : i64
    %%n = arith.constant %(table)d : index
    %%tab = memref.alloc(%%n) : memref<?xi64>
    %%mul = arith.constant -7046029254386353131 : i64
    %%add = arith.constant 12345 : i64
    scf.for %%i = %%c0 to %%n step %%c1 {
      %%i64 = arith.index_cast %%i : index to i64
      %%m = arith.muli %%i64, %%mul : i64
      %%t = arith.addi %%m, %%add : i64
      memref.store %%t, %%tab[%%i] : memref<?xi64>
    }
    %%out = memref.alloc(%%words) : memref<?xi64>
    %%ne = arith.constant %(expected)d : index
    %%expected = memref.alloc(%%ne) : memref<?xi64>
    %%counts = memref.alloc() : memref<2xi64>
    memref.store %%z64, %%counts[%%c0] : memref<2xi64>
    memref.store %%z64, %%counts[%%c1] : memref<2xi64>
    %%values = memref.get_global @values : memref<%(values)sxi64>
    %%tabi = memref.extract_aligned_pointer_as_index %%tab : memref<?xi64> -> index
    %%tab64 = arith.index_cast %%tabi : index to i64
    %%tabp = llvm.inttoptr %%tab64 : i64 to !llvm.ptr
    %%outi = memref.extract_aligned_pointer_as_index %%out : memref<?xi64> -> index
    %%out64 = arith.index_cast %%outi : index to i64
    %%outp = llvm.inttoptr %%out64 : i64 to !llvm.ptr"""

MAIN_EPILOGUE = """\
    %runs = memref.load %counts[%c0] : memref<2xi64>
    %fails = memref.load %counts[%c1] : memref<2xi64>
    vector.print str "RUNS "
    vector.print %runs : i64
    vector.print str "FAILS "
    vector.print %fails : i64
    return
  }"""


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
