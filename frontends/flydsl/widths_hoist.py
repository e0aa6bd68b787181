"""The widths again with flyhoist inside FlyDSL's JIT (compile_widths.py).

Each width is compiled by FlyDSL's JIT through the `flyhoist` backend
(hoist.py), COMPILE_ONLY: nothing launches. What is checked per width, from
FlyDSL's compiled artifact: its device binary, and that the `gpu.launch_func`
of its host code passes, as the trailing kernel arguments flyhoist added, the
values matched from this width's own trace.
"""

import hashlib


def launch_values(launcher, count):
    """The last `count` kernel operands of the artifact's gpu.launch_func, as
    ints (None where one is not a constant)."""
    from flydsl._mlir import ir
    from flydsl.compiler.jit_function import _create_mlir_context

    _, artifact = launcher._last_compiled
    found = []

    def visit(op):
        if op.name == "gpu.launch_func":
            # Operand segments: ..., dynamicSharedMemorySize, kernelOperands,
            # asyncObject (the stream, last).
            segments = op.attributes["operandSegmentSizes"]
            sizes = list(ir.DenseI32ArrayAttr(segments))
            end = sum(sizes[:-1])
            values = []
            for value in list(op.operands)[end - count : end]:
                owner = getattr(value.owner, "operation", value.owner)
                name = getattr(owner, "name", "")
                if name in ("llvm.mlir.constant", "arith.constant"):
                    values.append(ir.IntegerAttr(owner.attributes["value"]).value)
                else:
                    values.append(None)
            found.append(values)
        return ir.WalkResult.ADVANCE

    with _create_mlir_context():
        ir.Module.parse(artifact.ir).operation.walk(visit)
    return found


def compile_hoisted(options, widths, compile_widths):
    """Compiles every width through the flyhoist backend; returns
    [(width, binaries, seconds, record, launch values ok)]."""
    import backend
    import hoist

    backend.register()
    checked = []
    count = [len(hoist.LAUNCHES)]

    def check(width, launcher):
        # No new record: the width fell back to FlyDSL's own compile.
        fresh = len(hoist.LAUNCHES) > count[0]
        count[0] = len(hoist.LAUNCHES)
        record = hoist.LAUNCHES[-1] if fresh else None
        hoisted = record["hoisted"] if record else {}
        expected = [value for _, value in sorted(hoisted.values())]
        if not expected:
            checked.append((record, True))
            return
        seen = launch_values(launcher, len(expected))
        checked.append((record, bool(seen) and all(
            values == expected for values in seen)))

    results = compile_widths(
        options.kernel, options.chip, widths, None, options.save_dir,
        "flyhoist", on_compiled=check,
    )
    return [
        (width, blobs, seconds, record, ok)
        for (width, blobs, seconds), (record, ok) in zip(results, checked)
    ]


def report(options, alone, hoisted):
    """Prints flyhoist's figures; returns (B, distinct binaries in use
    after learning, widths whose launch values disagree)."""
    import hoist

    total = sum(seconds for _, _, seconds, _, _ in hoisted)
    hows = {}
    for width, _, _, record, _ in hoisted:
        hows.setdefault(record["how"] if record else "FlyDSL's own", []).append(
            width
        )
    for width, blobs, seconds, record, ok in hoisted if options.verbose else ():
        digest = hashlib.sha256(blobs[0]).hexdigest()[:16] if blobs else "-"
        how = record["how"] if record else "FlyDSL's own"
        values = ", ".join(
            f"{name}={value} (argument {index})"
            for name, (index, value) in sorted(
                (record or {}).get("hoisted", {}).items()
            )
        )
        print(
            f"width {width}: flyhoist {seconds * 1000:.0f} ms, {how}, "
            f"sha256 {digest}{'; ' + values if values else ''}"
            f"{'' if ok else '; LAUNCH VALUES DIFFER'}"
        )
    stats = hoist.STATS
    print(
        f"with flyhoist: {len(hoisted)} widths in {total:.2f} s "
        f"({total / len(hoisted) * 1000:.0f} ms per width); "
        + "; ".join(
            f"{how} {len(ws)} ({_widths_text(ws)})" for how, ws in hows.items()
        )
    )
    traced = stats["traced"]
    print(
        f"flyhoist at the slot: traced {traced}, "
        f"{stats['slot_s'] / max(traced, 1) * 1000:.1f} ms per trace "
        f"(parse, match and hoist "
        f"{stats['match_s'] / max(traced, 1) * 1000:.1f} ms), "
        f"device binaries compiled {stats['binaries']} "
        f"({stats['binary_s']:.2f} s), reused {stats['reused']}; "
        f"probe traces {stats['probes']} ({stats['probe_s']:.2f} s, "
        "in the first width's slot time)"
    )
    in_use = {
        hashlib.sha256(blob).hexdigest()
        for _, blobs, _, record, _ in hoisted
        if record and record["how"] != "alone"
        for blob in blobs
    }
    alone_widths = hows.get("alone", []) + hows.get("FlyDSL's own", [])
    bad = [w for w, _, _, _, ok in hoisted if not ok]
    print(
        f"distinct device binaries: {len({h for h in _digests(hoisted)})} in "
        f"the artifacts; after learning, {len(in_use)} serving "
        f"{len(hoisted) - len(alone_widths)} widths; compiled alone "
        f"{len(alone_widths)} ({_widths_text(alone_widths)}); launch values "
        f"as matched: {len(hoisted) - len(bad)} of {len(hoisted)}"
    )
    _cost_line(alone, hoisted, stats)
    produced = stats["binaries"] + len(hows.get("FlyDSL's own", []))
    return produced, bad


def _cost_line(alone, hoisted, stats):
    """A new (matched) width's cost, split, against one FlyDSL compile."""
    import statistics

    matched = [
        (seconds, record)
        for _, _, seconds, record, _ in hoisted
        if record and record["how"] == "matched"
    ]
    if not matched or not stats["binaries"]:
        return

    def median_ms(values):
        return statistics.median(values) * 1000

    total = median_ms([s for s, _ in matched])
    head = median_ms([r["head_s"] for _, r in matched])
    slot = median_ms([r["slot_s"] for _, r in matched])
    print(
        f"a matched width (median of {len(matched)}): {total:.0f} ms = "
        f"FlyDSL's trace and host side {total - head - slot:.0f} + the head "
        f"of its pipeline {head:.0f} + flyhoist at the slot {slot:.0f}; "
        f"one FlyDSL compile alone (median): "
        f"{median_ms([s for _, _, s in alone]):.0f} ms, of it a device "
        f"binary about {stats['binary_s'] / stats['binaries'] * 1000:.0f} ms"
    )


def traced():
    """How many traces flyhoist read at the slot (this process)."""
    import hoist

    return hoist.STATS["traced"]


def _digests(hoisted):
    for _, blobs, _, _, _ in hoisted:
        for blob in blobs:
            yield hashlib.sha256(blob).hexdigest()


def _widths_text(widths):
    if len(widths) <= 4:
        return ", ".join(str(w) for w in widths) or "none"
    return f"{widths[0]}, {widths[1]}, ..., {widths[-1]}"
