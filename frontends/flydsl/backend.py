"""A FlyDSL compile backend that takes each kernel through MLIR 22 at one slot.

Registered through FlyDSL's extension points (`register_backend`, and
`register_compile_runtime_mapping` so it launches with the ROCm runtime);
selected with FLYDSL_COMPILE_BACKEND=flyhoist. It is FlyDSL's ROCm backend
with its pipeline cut after `convert-fly-to-rocdl` and the `canonicalize`
that follows: `lower_compile_hints` (FlyDSL calls it on the module just before
the pipeline) runs the head itself, sends the module through the bridge
(bridge.py) to an MLIR 22 tool and back, and `pipeline_fragments` gives FlyDSL
the rest, binary included.

The MLIR 22 tool is FLYHOIST_FLYDSL_TOOL (a command line; default: the
build's fly-opt with no pass, so nothing is hoisted: the round trip). When the
bridge cannot carry a kernel, one line says why (FLYHOIST_FLYDSL_LOG, or
stderr) and the kernel goes on through FlyDSL's own pipeline unchanged.
"""

import os
import shlex
import subprocess
import sys
import time

from flydsl.compiler.backends import register_backend
from flydsl.compiler.backends.rocm import RocmBackend
from flydsl.runtime.device_runtime import register_compile_runtime_mapping

import bridge
import probe

NAME = "flyhoist"
# How many kernels went through MLIR 22 and how many fell back (this process).
COUNTS = {"carried": 0, "fell back": 0}
# The last compile's time in the head of FlyDSL's pipeline (up to the slot).
TIMES = {"head_s": 0.0}
SLOT = ("convert-fly-to-rocdl", "canonicalize")
_ROOT = os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
)
TBLGEN = os.environ.get(
    "FLYHOIST_MLIR_TBLGEN", "/usr/lib/llvm-22/bin/mlir-tblgen"
)
INCLUDE = os.environ.get("FLYHOIST_MLIR_INCLUDE", "/usr/lib/llvm-22/include")


def tool_command():
    command = os.environ.get("FLYHOIST_FLYDSL_TOOL")
    if command:
        return shlex.split(command)
    return [os.path.join(_ROOT, "build", "bin", "fly-opt")]


def log(message):
    path = os.environ.get("FLYHOIST_FLYDSL_LOG")
    if path:
        with open(path, "a") as out:
            out.write(message + "\n")
    else:
        print(message, file=sys.stderr)


def split(fragments):
    """(head up to the slot, the rest); the slot is after the first
    convert-fly-to-rocdl and the canonicalize right after it."""
    for index in range(len(fragments) - 1):
        if (fragments[index], fragments[index + 1]) == SLOT:
            return fragments[: index + 2], fragments[index + 2 :]
    return [], fragments


def run_tool(args, text, failure):
    """The MLIR 22 tool's output for `text` with `args`; raises
    failure(reason) with its first error line when it fails."""
    run = subprocess.run(
        [*tool_command(), *args, "-"],
        input=text,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        first = next(
            (line for line in run.stderr.splitlines() if "error" in line),
            run.stderr.strip()[:200],
        )
        raise failure(
            f"the MLIR 22 tool failed (exit {run.returncode}): "
            f"{first or 'no message'}"
        )
    return run.stdout


def through_mlir22(module_text, kernel):
    """The module through the bridge and the MLIR 22 tool; None (one line
    logged) when it cannot be carried."""
    try:
        text = bridge.to_mlir22(module_text, TBLGEN, INCLUDE)
        out = run_tool(
            ["--mlir-print-op-generic", "--mlir-print-debuginfo"],
            text,
            bridge.Uncarried,
        )
        return bridge.from_mlir22(out, TBLGEN, INCLUDE)
    except (bridge.Uncarried, OSError, subprocess.SubprocessError) as error:
        log(f"flyhoist: {kernel}: FlyDSL's own compile: {error}")
    except Exception as error:  # a bridge bug must not become the user's error
        log(
            f"flyhoist: {kernel}: FlyDSL's own compile: "
            f"bridge error {type(error).__name__}: {error}"
        )
    return None


def _kernel_names(module):
    names = []
    for op in module.body.operations:
        if op.operation.name == "gpu.module":
            for inner in op.regions[0].blocks[0].operations:
                if "sym_name" in inner.attributes:
                    names.append(str(inner.attributes["sym_name"]).strip('"'))
    return ", ".join(names) or "module"


def hoisting():
    """FLYHOIST_FLYDSL_HOIST=0 leaves the bridge's round trip alone (nothing
    inferred, nothing hoisted); otherwise traces are inferred and matched
    (hoist.py)."""
    return os.environ.get("FLYHOIST_FLYDSL_HOIST", "1") != "0"


def _external(backend, compile_hints):
    from flydsl.compiler.jit_function import _use_external_binary_codegen

    return _use_external_binary_codegen()


def _hoisted(module, chip, rest):
    """hoist.at_slot, or one logged reason and FlyDSL's own compile."""
    import hoist

    name = _kernel_names(module)
    try:
        hoist.at_slot(module, name, chip, rest)
        return True
    except hoist.Fallback as error:
        log(f"flyhoist: {name}: FlyDSL's own compile: {error}")
    except Exception as error:  # a flyhoist bug must not be the user's error
        log(
            f"flyhoist: {name}: FlyDSL's own compile: "
            f"flyhoist error {type(error).__name__}: {error}"
        )
    return False


class BridgeBackend(RocmBackend):
    def pipeline_fragments(self, *, compile_hints):
        return split(super().pipeline_fragments(compile_hints=compile_hints))[1]

    def external_binary_pipeline_fragments(self, *, compile_hints):
        pre, binary = super().external_binary_pipeline_fragments(
            compile_hints=compile_hints
        )
        return split(pre)[1], binary

    def lower_compile_hints(self, module, *, compile_hints):
        super().lower_compile_hints(module, compile_hints=compile_hints)
        from flydsl._mlir import ir
        from flydsl.compiler.jit_function import _run_pipeline
        from flydsl.utils import env

        head, _ = split(super().pipeline_fragments(compile_hints=compile_hints))
        if not head:
            return
        # FlyDSL's own runner: a failing pass fails as it would without us.
        started = time.perf_counter()
        _run_pipeline(
            module,
            head,
            verifier=env.debug.enable_verifier,
            print_after_all=env.debug.print_after_all,
        )
        if probe.probing():  # a probe trace (probe.py) stops at the slot
            raise probe.ProbeTrace(
                module.operation.get_asm(enable_debug_info=True)
            )
        TIMES["head_s"] = time.perf_counter() - started
        if hoisting() and not _external(self, compile_hints):
            rest = split(
                super().pipeline_fragments(compile_hints=compile_hints)
            )[1]
            if _hoisted(module, self.target.arch, rest):
                COUNTS["carried"] += 1
            else:
                COUNTS["fell back"] += 1
            return
        text = module.operation.get_asm(enable_debug_info=True)
        back = through_mlir22(text, _kernel_names(module))
        if back is None:
            COUNTS["fell back"] += 1
            return
        COUNTS["carried"] += 1
        with module.context:
            fresh = ir.Module.parse(back)
            for op in list(module.body.operations):
                op.operation.erase()
            for op in list(fresh.body.operations):
                module.body.append(op.operation)


def register():
    """Makes FLYDSL_COMPILE_BACKEND=flyhoist available (idempotent)."""
    register_backend(NAME, BridgeBackend, force=True)
    register_compile_runtime_mapping(NAME, "rocm")
