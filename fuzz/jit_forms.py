"""The forms of a generated kernel that jit_differential.py checks.

A trace is the kernel alone (`spec.kernel`), its spec.params materialized:
the `arith` form (host-level, `equals` parameters kept) or the `llvm` form
(lowered to the LLVM dialect). Each has a @main harness for mlir-runner, a
gpu.module form for code objects (gfx942), a canonical text (what the
compile reads, constants placed one way) and a code-object key.
"""

import copy
import os
import re
import sys
import threading

import differential
import lowering
from differential import run

TO_LLVM = ["--materialize-specialization", "--expand-strided-metadata",
           "--lower-affine", "--convert-scf-to-cf", "--convert-to-llvm",
           "--reconcile-unrealized-casts"]
OBJECT = "materialize-specialization," + lowering.AMDGPU % "gfx942"
CONSTANT_RE = re.compile(
    r'^\s*(%[\w]+) = "(?:arith\.constant|llvm\.mlir\.constant)"\(\) (.*)$')


class Tools(differential.Tools):
    def runnable(self, lowered):
        # mlir-runner registers no DLTI dialect; the lowering has applied
        # the spec (its index width) already.
        return re.sub(r"dlti\.dl_spec = #dlti\.dl_spec<[^>]*>(, )?", "",
                      lowered)


class Keys:
    """What jit_differential.py reads through python/flyhoist: a trace's
    spec.params as the library reads them (Module.spec_params, C API 1.6),
    and code-object keys as KernelCache forms them for one target (gfx942):
    keys.object_key where the package has it, else (the package before
    keys.py) the gpu.module fingerprints; none with --no-keys."""

    def __init__(self, args):
        self.lock = threading.Lock()
        self.compute = None
        if args.capi_lib:
            os.environ["FLYHOIST_CAPI_LIB"] = args.capi_lib
        sys.path.insert(0, args.python_path)
        try:
            from flyhoist import ir
            self.context = ir.Context()
        except (ImportError, RuntimeError, OSError) as error:
            sys.exit("jit_differential.py: no flyhoist package for the "
                     "traces' spec.params and the code-object keys (%s)"
                     % error)
        if not hasattr(ir.Module, "spec_params"):
            sys.exit("jit_differential.py: the flyhoist package at %s has no "
                     "Module.spec_params (C API 1.6), which reads a trace's "
                     "equals values" % args.python_path)
        if args.no_keys:
            return
        self.compute = lambda m: tuple(sorted(m.fingerprints().items()))
        try:
            from flyhoist import keys
        except ImportError:
            return
        target = ir.Target("gfx942")
        self.compute = lambda m: str(
            keys.object_key(m, target, m.fingerprints())[1])

    def spec_params(self, text):
        """The spec.params of the module `text`, in IR order, as the library
        reads them (dicts of name, value, type, equals, location)."""
        with self.lock:
            with self.context.parse(text, "trace") as module:
                return module.spec_params()

    def key(self, text):
        """The key of `text`'s objects; None where there is none (the
        library does not parse it, or refuses to key it: a miss)."""
        if self.compute is None:
            return None
        with self.lock:
            try:
                module = self.context.parse(text, "mutant")
            except Exception:  # a form the library does not parse
                return None
            try:
                return self.compute(module)
            except Exception:  # refused before any compile: never served
                return None
            finally:
                module.close()


# -- Forms of a kernel ------------------------------------------------------------

def trace_text(tools, kernel, values, form):
    """The kernel alone, marked spec.kernel, its spec.params materialized
    (in the arith form, those with `equals` kept)."""
    text = differential.replace_main(kernel.module_text(values), [])
    text = "\n".join(l for l in text.splitlines() if "printMemrefI64" not in l)
    text = re.sub(r"(func\.func @kernel\(.*\)) \{",
                  r"\1 attributes {spec.kernel} {", text, count=1)
    if form == "arith":
        text = re.sub(r'spec\.param "\w+" = (-?\d+) : (\w+)',
                      r"arith.constant \1 : \2", text)
        return tools.opt(text, ["--mlir-print-local-scope"], "tracing")
    text = tools.opt(text, TO_LLVM + ["--mlir-print-local-scope"], "tracing")
    # What a FlyDSL-shaped kernel holds: constants of their own type.
    return re.sub(r"llvm\.mlir\.constant\((-?\d+) : index\)",
                  r"llvm.mlir.constant(\1 : i64)", text)


def add_lines(text, lines):
    body = text.rstrip().splitlines()
    return "\n".join(body[:-1] + lines + body[-1:]) + "\n"


def harness(tools, kernel, form, equals_value, extra):
    """@main for `form`: fills the buffers (larger than the kernel needs,
    so that mutated constants stay inside), calls @kernel with `extra`
    trailing arguments and prints the output buffer."""
    big = copy.copy(kernel)
    big.in_size, big.out_size = 4 * kernel.in_size + 1024, 4 * kernel.out_size + 64
    equals = [p for p in kernel.params if p.equals]
    values = {p.name: equals_value for p in equals}
    main = big.main_lines(values, equals, extra) + [
        "  func.func private @printMemrefI64(memref<*xi64>) "
        "attributes {llvm.emit_c_interface}"]
    if form == "arith":
        return main
    types = kernel.kernel_arg_types() + [t for t, _ in extra]
    lowered = tools.opt("module {\n  func.func private @kernel(%s)\n%s\n}\n"
                        % (", ".join(types), "\n".join(main)),
                        differential.LOWER + ["--mlir-print-local-scope"],
                        "lowering the harness")
    return [l for l in lowered.rstrip().splitlines()[1:-1]
            if not re.match(r"\s*llvm\.func (private )?@kernel\(", l)]


def gpu_form(text):
    """The module with @kernel an entry point of a gpu.module (a gpu.func
    in the arith form, a rocdl.kernel llvm.func in the llvm form), root
    attributes kept; None for a module that has no such form."""
    lines = text.rstrip().splitlines()
    root = re.match(r"module (?:attributes \{(.*)\} )?\{$", lines[0])
    start = next((i for i, l in enumerate(lines)
                  if re.match(r"  (func|llvm)\.func @kernel\(", l)), None)
    if not root or start is None:
        return None
    body = list(lines[1:-1])
    header = body[start - 1]
    if header.startswith("  llvm."):
        body[start - 1] = (header.replace(" attributes {", " attributes {rocdl.kernel, ", 1)
                           if " attributes {" in header else
                           header[:-2] + " attributes {rocdl.kernel} {")
    else:
        end = next(i for i in range(start, len(lines)) if lines[i] == "  }")
        if lines[end - 1].strip() != "return":
            return None
        body[start - 1] = re.sub(r"func\.func @kernel\((.*?)\)( attributes| \{)",
                                 r"gpu.func @kernel(\1) kernel\2", header, count=1)
        body[end - 2] = body[end - 2].replace("return", "gpu.return")
    attrs = ", ".join(a for a in (root.group(1), "gpu.container_module") if a)
    return "\n".join(["module attributes {%s} {" % attrs, "  gpu.module @kernels {"]
                     + ["  " + l for l in body] + ["  }", "}"]) + "\n"


def canonical(tools, text, leaf_attributes=True):
    """What the compile reads of `text`: specialized, canonicalized, CSE'd,
    generic form (constants placed and merged one way); without the
    discardable attributes of constants unless `leaf_attributes`."""
    rc, out, err = run([tools.fly_opt, "--materialize-specialization",
                        "--canonicalize", "--cse", "--mlir-print-op-generic",
                        "--mlir-print-local-scope"], text)
    if rc != 0:
        return "<%s>" % err
    # Constants stand for their values at each use and values are
    # renumbered: the order canonicalize gives constants is no difference.
    constants, kept = {}, []
    for line in out.splitlines():
        found = CONSTANT_RE.match(line)
        if found:
            literal = found.group(2)
            if not leaf_attributes:
                literal = re.sub(r"\}> \{.*\} : \(", "}> : (", literal)
            constants[found.group(1)] = "<%s>" % literal
        else:
            kept.append(line)
    text = re.sub(r"%[\w]+", lambda m: constants.get(m.group(0), m.group(0)),
                  "\n".join(kept))
    names = {}
    return re.sub(r"%[\w]+", lambda m: names.setdefault(
        m.group(0), "%%v%d" % len(names)), text)


def code_object(fly_opt, text):
    """The gpu.binary of `text` lowered for gfx942, or None."""
    if text is None:
        return None
    rc, out, _ = lowering.run(
        [fly_opt, "--pass-pipeline=builtin.module(%s)" % OBJECT], text)
    found = re.search(r"gpu\.binary @kernels .*", out) if rc == 0 else None
    return found.group(0) if found else None
