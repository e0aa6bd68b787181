"""flyhoist inside FlyDSL's JIT: traces inferred and matched at the slot.

The `flyhoist` compile backend (backend.py) calls `at_slot` with FlyDSL's
module after `convert-fly-to-rocdl` and its `canonicalize`. The module goes
through the bridge to MLIR 22, where flyhoist's Python package (its public
functions: Context, infer_spec_params, match_spec_params) reads it as a
trace of the kernel, keyed by the kernel's names and the chip:

- a trace that matches a template learned before is served by it: the
  template, with the values read from this trace, is hoisted
  (hoist-stride-specialization in the MLIR 22 tool); its kernel is the
  template's, its host function launches it with this width's values;
- else a trace that aligns with one compiled alone before (integer
  constants aside) makes a template with it (flyhoist's inference), served
  as above;
- else it is compiled as FlyDSL compiles it (through MLIR 22 with no pass,
  the round trip), and kept to pair with a later trace.

The module comes back across the bridge. Its gpu.module is compiled to a
device binary by the rest of FlyDSL's own pipeline, once per flyhoist
compile fingerprint of that gpu.module (and the pipeline's text): a module
whose fingerprint was compiled before gets that gpu.binary in place of its
gpu.module, so FlyDSL's gpu-module-to-binary does not run for it and
FlyDSL's pipeline lowers only its host code.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import bridge

_ROOT = os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
)
# Pass options as flyhoist's inference uses them: offset tails hoisted too
# (one device binary per template; each costs an add per access). A kept
# parameter becomes its constant (FlyDSL has no `spec` dialect): its
# gpu.module then differs per value, and so does its device binary.
HOIST_OPTIONS = "hoist-immediate-offsets=true materialize-kept=true"
# How many traces compiled alone a new trace tries to pair with.
MAX_PAIRINGS = 4

STATS = {
    "traced": 0,
    "matched": 0,
    "inferred": 0,
    "alone": 0,
    "binaries": 0,
    "reused": 0,
    "slot_s": 0.0,
    "match_s": 0.0,
    "binary_s": 0.0,
    "probes": 0,
    "probe_s": 0.0,
}
# One record per compile at the slot: kernel, how it was served, the values
# its launch passes as trailing kernel arguments, the device key.
LAUNCHES = []
_KERNELS = {}  # (kernel names, chip) -> _Kernel
_BINARIES = {}  # device key -> FlyDSL's gpu.binary op, as text
_CONTEXT = []


class Fallback(Exception):
    """The kernel goes down FlyDSL's own compile; the text says why."""


class _Kernel:
    def __init__(self):
        self.alone = []  # flyhoist Modules of traces compiled alone
        self.templates = []  # (template Module, [parameter dicts])


def _flyhoist():
    try:
        import flyhoist  # noqa: F401
    except ImportError:
        sys.path.insert(0, os.path.join(_ROOT, "python"))
    import flyhoist

    return flyhoist


def _context():
    if not _CONTEXT:
        _CONTEXT.append(_flyhoist().Context())
    return _CONTEXT[0]


def _tool(args, text):
    import backend

    return backend.run_tool(args, text, Fallback)


_GENERIC = ["--mlir-print-op-generic", "--mlir-print-debuginfo"]
_PARAM = re.compile(r'spec\.param "([^"]+)" = (-?\d+)')


def _instantiate(template, values):
    """The template with this trace's values, hoisted by the MLIR 22 tool:
    (generic text, manifest)."""
    text = _PARAM.sub(
        lambda m: f'spec.param "{m.group(1)}" = {values[m.group(1)]}',
        template.text(),
    )
    with tempfile.NamedTemporaryFile(suffix=".json") as manifest:
        out = _tool(
            [
                "--hoist-stride-specialization="
                f"{HOIST_OPTIONS} manifest={manifest.name}",
                *_GENERIC,
            ],
            text,
        )
        with open(manifest.name) as written:
            plan = json.load(written)
    return strip_record(out), plan


def strip_record(text):
    """Drops the `spec.record` attribute (FlyDSL has no `spec` dialect; the
    record is flyhoist's, the launch already passes the values)."""
    while True:
        start = text.find('"spec.record" = #spec.record<')
        if start < 0:
            start = text.find("spec.record = #spec.record<")
        if start < 0:
            return text
        depth, end = 0, text.index("<", start)
        while True:
            depth += {"<": 1, ">": -1}.get(text[end], 0)
            end += 1
            if depth == 0:
                break
        before = text[:start].rstrip()
        after = text[end:].lstrip()
        if before.endswith(","):
            before = before[:-1]
        elif after.startswith(","):
            after = after[1:].lstrip()
        text = before + (" " if not after.startswith("}") else "") + after


def _serve(kernel, trace, name):
    """Matches the trace against the kernel's templates; (text, plan,
    values) or None."""
    flyhoist = _flyhoist()
    for template, _ in kernel.templates:
        try:
            values = flyhoist.match_spec_params(template, trace)
        except flyhoist.TraceMismatch:
            continue
        text, plan = _instantiate(template, values)
        return text, plan, values
    return None


def _learn(kernel, trace, name):
    """Infers a template from the trace and one compiled alone before;
    serves the trace with it, or None."""
    flyhoist = _flyhoist()
    for lone in kernel.alone[-MAX_PAIRINGS:]:
        base = lone.clone()
        try:
            params = flyhoist.infer_spec_params(base, [trace])
        except flyhoist.TraceMismatch:
            base.close()
            continue
        if not params:  # the same trace again: nothing varies
            base.close()
            return None
        kernel.templates.append((base, params))
        kernel.alone.remove(lone)
        STATS["inferred"] += 1
        return _serve(kernel, trace, name)
    return None


def _probed(kernel, trace, name):
    """A template from probe traces (probe.py) for a kernel with neither a
    template nor an earlier trace; True when one was learned."""
    import backend
    import probe

    if kernel.templates or kernel.alone or not probe.enabled():
        return False
    template, params, line = probe.learn(
        _flyhoist(),
        _context(),
        trace,
        name,
        lambda text: bridge.to_mlir22(text, backend.TBLGEN, backend.INCLUDE),
        STATS,
    )
    if line:
        backend.log(line)
    if template is None:
        return False
    kernel.templates.append((template, params))
    STATS["inferred"] += 1
    return True


def plan_module(module_text, name, chip):
    """FlyDSL's module at the slot -> (MLIR 22 generic text to bring back,
    how it was served, the values of its trailing kernel arguments)."""
    import backend

    text22 = bridge.to_mlir22(module_text, backend.TBLGEN, backend.INCLUDE)
    context = _context()
    started = time.perf_counter()
    trace = context.parse(text22, name)
    STATS["traced"] += 1
    kernel = _KERNELS.setdefault((name, chip), _Kernel())
    learned_before = len(kernel.templates)
    served = _serve(kernel, trace, name) or _learn(kernel, trace, name)
    STATS["match_s"] += time.perf_counter() - started
    probed = served is None and _probed(kernel, trace, name)
    if probed:
        served = _serve(kernel, trace, name)
    if served is None:
        kernel.alone.append(trace)
        STATS["alone"] += 1
        return _tool(_GENERIC, text22), "alone", {}
    trace.close()
    text, plan, values = served
    how = "matched" if len(kernel.templates) == learned_before else "inferred"
    how = "probed" if probed else how
    STATS["matched"] += how == "matched"
    hoisted = {
        entry["name"]: (entry["kernel_parameter"]["bare_pointers"],
                        values[entry["name"]])
        for k in plan["kernels"]
        for entry in k["hoisted"]
    }
    return text, how, hoisted


def device_key(generic_text, rest):
    """flyhoist's compile fingerprint of the module's gpu.modules, with the
    text of the pipeline that makes the binary."""
    _flyhoist()
    from flyhoist.keys import compile_fingerprint

    with _context().parse(generic_text, "slot") as module:
        fingerprint = compile_fingerprint(module)
    digest = hashlib.sha256(fingerprint.encode())
    digest.update("\n".join(rest).encode())
    return digest.hexdigest()


def _binary_of(module, key, rest):
    """FlyDSL's gpu.binary for `key`: compiled by the rest of FlyDSL's
    pipeline on a copy of `module` the first time, then reused."""
    from flydsl._mlir import ir
    from flydsl.compiler.jit_function import _run_pipeline
    from flydsl.utils import env

    if key in _BINARIES:
        STATS["reused"] += 1
        return _BINARIES[key]
    started = time.perf_counter()
    copy = ir.Module.parse(module.operation.get_asm(enable_debug_info=True))
    _run_pipeline(
        copy,
        rest,
        verifier=env.debug.enable_verifier,
        print_after_all=env.debug.print_after_all,
    )
    binaries = [
        op.operation.get_asm(enable_debug_info=True)
        for op in copy.body.operations
        if op.operation.name == "gpu.binary"
    ]
    STATS["binary_s"] += time.perf_counter() - started
    if len(binaries) != 1:
        raise Fallback(f"{len(binaries)} gpu.binary ops, expected 1")
    STATS["binaries"] += 1
    _BINARIES[key] = binaries[0]
    return binaries[0]


def swap_in_binary(module, binary_text):
    """Replaces the module's gpu.module by the gpu.binary (same symbol)."""
    from flydsl._mlir import ir

    holder = ir.Module.parse(binary_text)
    for op in list(module.body.operations):
        if op.operation.name == "gpu.module":
            binary = list(holder.body.operations)[0]
            binary.operation.move_before(op)
            op.operation.erase()


def at_slot(module, name, chip, rest):
    """The slot's work on FlyDSL's `module` (changed in place); raises
    Fallback (module unchanged) when flyhoist cannot take it."""
    import backend
    from flydsl._mlir import ir

    started = time.perf_counter()
    text = module.operation.get_asm(enable_debug_info=True)
    try:
        generic, how, hoisted = plan_module(text, name, chip)
        back = bridge.from_mlir22(generic, backend.TBLGEN, backend.INCLUDE)
        key = device_key(generic, rest)
    except (bridge.Uncarried, OSError, subprocess.SubprocessError) as error:
        raise Fallback(str(error)) from error
    with module.context:
        fresh = ir.Module.parse(back)
        binary = _binary_of(fresh, key, rest)
        swap_in_binary(fresh, binary)
        for op in list(module.body.operations):
            op.operation.erase()
        for op in list(fresh.body.operations):
            module.body.append(op.operation)
    seconds = time.perf_counter() - started
    LAUNCHES.append(
        {
            "kernel": name,
            "how": how,
            "hoisted": hoisted,
            "key": key,
            "slot_s": seconds,
            "head_s": backend.TIMES["head_s"],
        }
    )
    STATS["slot_s"] += seconds
