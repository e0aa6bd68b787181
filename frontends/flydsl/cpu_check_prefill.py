"""The FP4 prefill kernel's FlyDSL output, hoisted against specialized, on
the CPU.

    cpu_check_prefill.py [--widths 1,3,100,256] [--seed 7] [--probed]

As cpu_check.py does for the gather: for each width W, FlyDSL's module at
the slot for W (specialized) and the template flyhoist infers from the
traces of 256 and 2, hoisted with W's value as the trailing kernel argument
(matched from W's trace; for 1, whose trace does not match, the template at
p0 = 1; --probed: the template of 256's probe traces, as cpu_check.py's),
both run by bench/gpu/flydsl_cpu.py's interpreter (its scaled FP4
MFMA, ds_bpermute, buffer loads, waves of 64) over a small instance: 2 rows
of 64 heads, windows inside the first 64 W tokens, pages drawn at random
from a pool of 16, random FP4 bytes and E8M0 scales, random f32 weights.
The logits (every byte, the fill outside the windows included) are compared
bit for bit. The interpreter models the MFMA from its documented operand
layouts with exact sums: the check is hoisted against specialized, not
against a reference.
"""

import argparse
import os
import random
import struct
import sys

import cpu_check

ROWS, HEADS, HEAD_DIM, PAGE, POOL, STRIDE = 2, 64, 128, 64, 16, 320


def dims():
    k_tiles = HEAD_DIM // 128
    return {
        "logits": (ROWS, STRIDE),
        "q": (ROWS, HEADS, HEAD_DIM // 2),
        "q_scale": (ROWS, k_tiles, 4, 16, 4),
        "kv": (POOL, k_tiles, 4, PAGE, 16),
        "kv_scale": (POOL, k_tiles, 4, PAGE),
    }


def layout(shape):
    """FlyDSL's packed layout of a contiguous tensor: (shapes, strides
    without the last, unit one)."""
    strides, step = [], 1
    for extent in reversed(shape[1:]):
        step *= extent
        strides.insert(0, step)
    return (tuple(shape), tuple(strides))


def schedule(width):
    ends = [min(64 * width, 130), min(64 * width, 300)]
    starts = [0, min(3, ends[1] - 1)]
    records = []
    for row in range(ROWS):
        chunks = (ends[row] + 255) // 256
        records += [[row, row, c, 1, starts[row], ends[row]]
                    for c in range(chunks)]
    return records


def words(values, fmt):
    return b"".join(struct.pack(fmt, v) for v in values)


def instance(rng, width):
    size = {name: 1 for name in dims()}
    for name, shape in dims().items():
        for extent in shape:
            size[name] *= extent
    # Page ids for every index the chunks read (a chunk's 4 pages even past
    # the window), so no read leaves the table.
    table = [rng.randrange(POOL) for _ in range(ROWS * width + 8)]
    sched = schedule(width)
    tensors = {
        "logits": words([float("-inf")] * size["logits"], "<f"),
        "q": bytes(rng.randrange(256) for _ in range(size["q"])),
        "q_scale": bytes(rng.randint(118, 136) for _ in range(
            size["q_scale"])),
        "kv": bytes(rng.randrange(256) for _ in range(size["kv"])),
        "kv_scale": bytes(rng.randint(118, 136) for _ in range(
            size["kv_scale"])),
        "bt": words(table, "<i"),
        "weights": words([rng.uniform(-1, 1) for _ in range(ROWS * HEADS)],
                         "<f"),
        "schedule": words([v for r in sched for v in r], "<i"),
    }
    layouts = {name: layout(shape) for name, shape in dims().items()}
    layouts["bt"] = layout((ROWS, width))
    layouts["weights"] = layout((ROWS, HEADS))
    layouts["schedule"] = layout((len(sched), 6))
    return tensors, layouts, len(sched)


def run(text, tensors, layouts, ctas, extra):
    import flydsl_cpu as cpu

    top = cpu.Parser(cpu_check.generic(text)).op().regions[0]
    (func,) = list(cpu.find_ops(top, "gpu.func"))
    memory = cpu.Memory({k: bytearray(v) for k, v in tensors.items()})
    args = []
    for name in ("logits", "q", "q_scale", "kv", "kv_scale", "bt", "weights",
                 "schedule"):
        args += [("g", name, 0), layouts[name]]
    args += [STRIDE, 0.5] + extra
    if len(func.regions[0][0].args) != len(args):
        raise SystemExit(f"kernel takes {len(func.regions[0][0].args)} "
                         f"arguments, given {len(args)}")
    cpu.run_kernel(func, {}, memory, args, ctas, 256)
    return bytes(memory.tensors["logits"])


def _patch():
    import flydsl_cpu as cpu

    cpu_check._patch_interpreter()

    def floordiv(x, y, w):
        if y == 0:
            raise cpu.KernelError("division by zero")
        return cpu.signed(x, w) // cpu.signed(y, w)

    def rem(x, y, w):
        if y == 0:
            raise cpu.KernelError("remainder by zero")
        a, b = cpu.signed(x, w), cpu.signed(y, w)
        return abs(a) % abs(b) * (1 if a >= 0 else -1)

    cpu.HANDLERS["arith.floordivsi"] = cpu.h_binary(floordiv)
    cpu.HANDLERS["arith.remsi"] = cpu.h_binary(rem)
    cpu.HANDLERS["vector.bitcast"] = cpu.h_bitcast


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", default="1,3,100,256")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--perturb", action="store_true",
        help="pass the hoisted kernel width + 1: the check must then fail",
    )
    parser.add_argument(
        "--probed", action="store_true",
        help="the template of the first width's probe traces (cpu_check.py)",
    )
    options = parser.parse_args(argv)
    import backend
    import bridge
    import hoist

    _patch()
    work = cpu_check.tempfile.mkdtemp(prefix="flyhoist-cpu-")

    def slot(width):
        return cpu_check.slot_text("gfx950", width, work, "prefill")

    template = cpu_check.template_for("gfx950", "prefill", slot,
                                      options.probed)
    rng = random.Random(options.seed)
    failures = 0
    for width in [int(w) for w in options.widths.split(",")]:
        own = bridge.to_mlir22(slot(width), backend.TBLGEN, backend.INCLUDE)
        values, how = cpu_check.matched(template, own, {"p0": width})
        if how != "matched" and options.probed:
            print(f"width {width}: not matched; not checked")
            continue
        text, plan = hoist._instantiate(template, values)
        extra = [v for _, v in sorted(
            (e["argument"], values[e["name"]])
            for k in plan["kernels"] for e in k["hoisted"])]
        tensors, layouts, ctas = instance(rng, width)
        specialized = run(own, tensors, layouts, ctas, [])
        if options.perturb:
            extra[-1] += 1
        hoisted = run(text, tensors, layouts, ctas, extra)
        same = specialized == hoisted
        values_out = struct.unpack(f"<{len(specialized) // 4}f", specialized)
        written = [v for v in values_out if v != float("-inf")]
        finite = all(v == v and abs(v) != float("inf") for v in written)
        failures += not same
        print(f"width {width}: {how} {values}; {ctas} CTAs, {len(written)} "
              f"logits written ({len(set(written))} distinct, "
              f"{'all finite' if finite else 'NOT ALL FINITE'}); "
              f"hoisted == specialized: {'yes' if same else 'NO'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
