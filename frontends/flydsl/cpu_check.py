"""The paged gather's FlyDSL output, hoisted against specialized, on the CPU.

    cpu_check.py [--widths 1,3,100,256] [--seed 7] [--chip gfx942] [--probed]

No AMD GPU here: the kernels are run by the project's SIMT interpreter of
lowered device IR (bench/gpu/flydsl_cpu.py: generic-form MLIR 22, every
thread of every workgroup). For each width W the kernel is traced by FlyDSL
(COMPILE_ONLY; the module at the slot, FLYDSL_DUMP_IR), taken across the
bridge, and run in two forms:

- specialized: FlyDSL's own module for W (the width baked in), and
- hoisted: the template flyhoist inferred from the traces of 256 and 2
  (hoist.py, what the `flyhoist` backend compiles), hoisted with W's values
  as the kernel's trailing arguments: the values matched from W's trace, or
  for a width whose trace does not match (1: FlyDSL folds `seq * 1`) the
  template's parameters at W (p0 = W, p1 = p2 = 16 W, as matched for every other
  width) -- the code the template's one binary would run for W. With
  --probed, the template the backend serves the first width with (its
  trace and its probe traces, probe.py), learned through FlyDSL's JIT; a
  width it does not match is not checked.

Both outputs are compared bit for bit, and with the gather computed in
Python from the same random inputs (pages shuffled, every byte random).
"""

import argparse
import contextlib
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))

BLOCK, HEAD_BYTES, SEQS = 16, 128, 2


def slot_text(chip, width, work, kernel="gather"):
    """FlyDSL's module at the slot (10_canonicalize) for the kernel at W."""
    import compile_widths

    dump = os.path.join(work, f"{kernel}-w{width}")
    # FlyDSL says where it dumps on stdout: not part of this report.
    with contextlib.redirect_stdout(sys.stderr):
        compile_widths.compile_widths(kernel, chip, [width], dump_dir=dump)
    for base, _, files in os.walk(dump):
        if "10_canonicalize.mlir" in files:
            return open(os.path.join(base, "10_canonicalize.mlir")).read()
    raise SystemExit(f"no slot dump for width {width}")


def generic(text):
    """Generic form, local scope, no locations: what the interpreter reads."""
    import backend

    return subprocess.run(
        [*backend.tool_command(), "--mlir-print-op-generic",
         "-mlir-print-local-scope", "-"],
        input=text, capture_output=True, text=True, check=True,
    ).stdout


def run(text, width, tensors, extra):
    """Runs the gpu.func of `text` over the gather's grid; returns out."""
    import flydsl_cpu as cpu

    top = cpu.Parser(generic(text)).op().regions[0]
    (func,) = list(cpu.find_ops(top, "gpu.func"))
    memory = cpu.Memory({k: bytearray(v) for k, v in tensors.items()})
    args = []
    for name in ("out", "kv", "bt"):
        args += [("g", name, 0), ((len(tensors[name]),),)]
    args += extra
    nargs = len(func.regions[0][0].args)
    if nargs != len(args):
        raise SystemExit(f"kernel takes {nargs} arguments, given {len(args)}")
    body = func.regions[0][0]
    for token in range(width * BLOCK):
        for seq in range(SEQS):
            group = cpu.Group((token, seq), {})
            for tid in range(HEAD_BYTES // 16):
                for _ in cpu.Thread(tid, group, memory).run_block(body, args):
                    raise SystemExit("the gather has no wave operation")
    return bytes(memory.tensors["out"])


KERNEL_NAMES = {
    "gather": "paged_gather_kernel_0",
    "prefill": "mqa_logits_fp4_prefill_kernel_0",
}


def template_for(chip, kernel, slot, probed):
    """The template: with `probed`, the one the `flyhoist` backend serves
    the first width (256) with, inferred in FlyDSL's JIT from its trace and
    probe traces (probe.py); else the one inferred from the traces of 256
    and 2 (the backend's without probes)."""
    import backend
    import compile_widths
    import hoist

    if not probed:
        for width in (256, 2):
            hoist.plan_module(slot(width), kernel, chip)
        (template, _), = hoist._KERNELS[(kernel, chip)].templates
        return template
    backend.register()
    with contextlib.redirect_stdout(sys.stderr):
        compile_widths.compile_widths(kernel, chip, [256], backend="flyhoist")
    (template, _), = hoist._KERNELS[(KERNEL_NAMES[kernel], chip)].templates
    return template


def matched(template, own, fallback):
    """(values, how): the template's values in the trace `own`, or
    `fallback` where it does not match."""
    import hoist

    flyhoist = hoist._flyhoist()
    try:
        with hoist._context().parse(own, "trace") as trace:
            return flyhoist.match_spec_params(template, trace), "matched"
    except flyhoist.TraceMismatch:
        return fallback, "not matched"


def cpu_error():
    import flydsl_cpu as cpu

    return cpu.KernelError


def _patch_interpreter():
    """The gather's ops the interpreter lacks: a 2-D grid, arith.shrsi."""
    import flydsl_cpu as cpu

    def block_id(th, op, a):
        bid = th.group.bid
        x, y = bid if isinstance(bid, tuple) else (bid, 0)
        return [x if "dim x" in op.props else y if "dim y" in op.props else 0]

    cpu.HANDLERS["gpu.block_id"] = block_id
    cpu.HANDLERS["arith.shrsi"] = cpu.h_binary(
        lambda x, y, w: cpu.signed(x, w) >> y if y < w else 0
    )


def inputs(rng, width):
    pages = SEQS * width
    table = rng.sample(range(pages), pages)
    return {
        "out": bytes(SEQS * width * BLOCK * HEAD_BYTES),
        "kv": bytes(rng.randrange(256) for _ in range(
            pages * BLOCK * HEAD_BYTES)),
        "bt": b"".join(v.to_bytes(4, "little") for v in table),
    }, table


def expected(tensors, table, width):
    kv, out = tensors["kv"], bytearray()
    for seq in range(SEQS):
        for token in range(width * BLOCK):
            page = table[seq * width + token // BLOCK]
            row = (page * BLOCK + token % BLOCK) * HEAD_BYTES
            out += kv[row:row + HEAD_BYTES]
    return bytes(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", default="1,3,100,256")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--chip", default="gfx942")
    parser.add_argument(
        "--perturb", action="store_true",
        help="pass the hoisted kernel a wrong value (p1 + 16): the check "
        "must then fail",
    )
    parser.add_argument(
        "--probed", action="store_true",
        help="the template of the first width's probe traces, learned in "
        "FlyDSL's JIT (else the one inferred from 256 and 2)",
    )
    options = parser.parse_args(argv)
    import backend
    import bridge
    import hoist

    _patch_interpreter()
    work = tempfile.mkdtemp(prefix="flyhoist-cpu-")
    template = template_for(
        options.chip, "gather",
        lambda width: slot_text(options.chip, width, work), options.probed,
    )
    rng = random.Random(options.seed)
    failures = 0
    for width in [int(w) for w in options.widths.split(",")]:
        own = bridge.to_mlir22(slot_text(options.chip, width, work),
                               backend.TBLGEN, backend.INCLUDE)
        values, how = matched(template, own, {
            "p0": width, "p1": BLOCK * width, "p2": BLOCK * width})
        if how != "matched" and options.probed:
            print(f"width {width}: not matched; not checked")
            continue
        hoisted_text, plan = hoist._instantiate(template, values)
        order = sorted(
            (e["argument"], values[e["name"]])
            for k in plan["kernels"] for e in k["hoisted"]
        )
        tensors, table = inputs(rng, width)
        specialized = run(own, width, tensors, [])
        passed = [v for _, v in order]
        if options.perturb:
            passed[-1] += BLOCK
        try:
            hoisted = run(hoisted_text, width, tensors, passed)
        except cpu_error() as error:  # an access outside its tensor
            hoisted = f"faults: {error}"
        same = specialized == hoisted
        right = specialized == expected(tensors, table, width)
        failures += not (same and right)
        print(
            f"width {width}: {how} {values}; {len(specialized)} bytes; "
            f"hoisted == specialized: {'yes' if same else 'NO'}"
            f"{'' if isinstance(hoisted, bytes) else ' (' + hoisted + ')'}; "
            f"== Python's gather: {'yes' if right else 'NO'}"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
