"""Compiles one FlyDSL kernel for N widths through FlyDSL's own JIT, no GPU.

Run under the FlyDSL venv (scripts/flydsl.sh sets it up). For each width the
kernel is built anew with the width as a plain Python int, traced with CPU
tensors under COMPILE_ONLY=1 and ARCH=<chip>, and compiled by FlyDSL's
pipeline down to its device binary (`gpu.binary`). The binaries are read back
from FlyDSL's compiled artifact and counted.

Widths: 256 (the default, equal to block_k) first, then 1, 2, 3, ...
"""

import argparse
import hashlib
import os
import sys
import time

KERNELS = ("gather", "prefill")
CHIPS = ("gfx942", "gfx950")


def widths_for(count):
    """`count` widths: 256 first, then 1, 2, 3, ... (256 is not repeated)."""
    widths = [256]
    width = 1
    while len(widths) < count:
        if width != 256:
            widths.append(width)
        width += 1
    return widths[:count]


def _launcher_and_args(kernel, width):
    import torch

    if kernel == "gather":
        from paged_gather import build_launcher

        block_size, head_dim, num_seqs = 16, 128, 2
        launch = build_launcher(width, block_size, head_dim, num_seqs)
        args = (
            torch.zeros(
                num_seqs * width * block_size * head_dim, dtype=torch.uint8
            ),
            torch.zeros(64 * block_size * head_dim, dtype=torch.uint8),
            torch.zeros(num_seqs * width, dtype=torch.int32),
        )
        return launch, args
    from mqa_logits_fp4_prefill import example_launch

    return example_launch(max_blocks_per_seq=width)


def device_binaries(launcher):
    """The device code objects of the launcher's last compile, as bytes."""
    from flydsl._mlir import ir
    from flydsl._mlir.dialects import gpu
    from flydsl.compiler.jit_function import _create_mlir_context

    _, artifact = launcher._last_compiled
    found = []

    def visit(op):
        if op.name == "gpu.binary":
            for obj in ir.ArrayAttr(op.attributes["objects"]):
                found.append(bytes(gpu.ObjectAttr(obj).object))
        return ir.WalkResult.ADVANCE

    with _create_mlir_context():
        ir.Module.parse(artifact.ir).operation.walk(visit)
    return found


def compile_widths(
    kernel,
    chip,
    widths,
    dump_dir=None,
    save_dir=None,
    backend="rocm",
    on_compiled=None,
):
    """Compiles every width with FlyDSL's compile backend `backend`;
    returns (width, binaries, seconds) per width."""
    os.environ["COMPILE_ONLY"] = "1"
    os.environ["ARCH"] = chip
    os.environ["FLYDSL_RUNTIME_ENABLE_CACHE"] = "0"
    os.environ["FLYDSL_COMPILE_BACKEND"] = backend
    os.environ["FLYDSL_RUNTIME_KIND"] = "rocm"
    results = []
    for index, width in enumerate(widths):
        if dump_dir and index == 0:
            os.environ["FLYDSL_DUMP_IR"] = "1"
            os.environ["FLYDSL_DUMP_DIR"] = dump_dir
        launch, args = _launcher_and_args(kernel, width)
        start = time.perf_counter()
        launch(*args)
        seconds = time.perf_counter() - start
        os.environ.pop("FLYDSL_DUMP_IR", None)
        binaries = device_binaries(launch)
        if on_compiled:
            on_compiled(width, launch)
        if save_dir:
            for number, blob in enumerate(binaries):
                tag = "" if backend == "rocm" else f"-{backend}"
                if os.environ.get("FLYHOIST_FLYDSL_HOIST") == "0":
                    tag = "-roundtrip"
                name = f"{kernel}-{chip}-w{width}{tag}-{number}.hsaco"
                with open(os.path.join(save_dir, name), "wb") as out:
                    out.write(blob)
        results.append((width, binaries, seconds))
    return results


def _parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel", choices=KERNELS, required=True)
    parser.add_argument("--chip", choices=CHIPS, required=True)
    parser.add_argument(
        "--widths", type=int, required=True, help="how many widths"
    )
    parser.add_argument(
        "--dump-dir", help="FlyDSL's IR of the first width, every stage"
    )
    parser.add_argument("--save-dir", help="write each device binary here")
    parser.add_argument(
        "--verbose", action="store_true", help="one line per width"
    )
    parser.add_argument(
        "--alone",
        action="store_true",
        help="FlyDSL alone only (no flyhoist, no bridge)",
    )
    parser.add_argument(
        "--round-trip",
        action="store_true",
        help="also compile every width through the bridge (FlyDSL -> "
        "MLIR 22 -> FlyDSL, nothing hoisted) and compare",
    )
    options = parser.parse_args(argv)
    if options.widths < 1:
        parser.error("--widths must be at least 1")
    if options.kernel == "prefill" and options.chip != "gfx950":
        parser.error(
            "the prefill kernel uses gfx950's scaled FP4 MFMA: --chip gfx950"
        )
    return options


def _report_alone(results, verbose):
    """Prints FlyDSL alone's figures; returns the number of binaries."""
    total = sum(seconds for _, _, seconds in results)
    distinct = {
        hashlib.sha256(blob).hexdigest()
        for _, blobs, _ in results
        for blob in blobs
    }
    for width, blobs, seconds in results if verbose else ():
        digest = hashlib.sha256(blobs[0]).hexdigest()[:16] if blobs else "-"
        print(
            f"width {width}: {len(blobs)} binary, "
            f"{seconds * 1000:.0f} ms, sha256 {digest}"
        )
    print(
        f"compile: {len(results)} widths in {total:.2f} s "
        f"({total / len(results) * 1000:.0f} ms per width); "
        f"{len(distinct)} distinct binaries"
    )
    return sum(len(blobs) for _, blobs, _ in results)


def _round_trip(options, results):
    """Compiles `results`' widths again through the bridge; prints its
    figures; returns (number of binaries, all identical to FlyDSL
    alone's)."""
    import backend

    backend.register()
    backend.COUNTS.update({"carried": 0, "fell back": 0})
    os.environ["FLYHOIST_FLYDSL_HOIST"] = "0"
    bridged = compile_widths(
        options.kernel,
        options.chip,
        [width for width, _, _ in results],
        None,
        options.save_dir,
        "flyhoist",
    )
    total = sum(seconds for _, _, seconds in bridged)
    for (width, blobs, _), (_, others, seconds) in (
        zip(results, bridged) if options.verbose else ()
    ):
        print(
            f"width {width}: round trip {seconds * 1000:.0f} ms, "
            f"{'identical' if blobs == others else 'DIFFERENT'}"
        )
    print(
        f"round trip: {len(bridged)} widths in {total:.2f} s "
        f"({total / len(bridged) * 1000:.0f} ms per width); "
        f"through MLIR 22: {backend.COUNTS['carried']}, "
        f"FlyDSL's own compile: {backend.COUNTS['fell back']}"
    )
    os.environ.pop("FLYHOIST_FLYDSL_HOIST")
    same = all(a[1] == b[1] for a, b in zip(results, bridged))
    return sum(len(blobs) for _, blobs, _ in bridged), same


def _with_flyhoist(options, results):
    """Compiles every width with flyhoist in FlyDSL's JIT; prints its
    figures; returns (B, traces read, launch values all as matched, round
    trip identical on the widths it compiled alone, how many those are)."""
    import widths_hoist

    hoisted = widths_hoist.compile_hoisted(
        options, widths_for(options.widths), compile_widths
    )
    produced, bad = widths_hoist.report(options, results, hoisted)
    alone = [
        (mine, theirs)
        for (_, mine, _, record, _), (_, theirs, _) in zip(hoisted, results)
        if record is None or record["how"] == "alone"
    ]
    same = all(mine == theirs for mine, theirs in alone)
    traced = widths_hoist.traced()
    return produced, traced, not bad, same, len(alone)


def _alone_main(options, results, count, line):
    """--alone: FlyDSL alone's line, and with --round-trip the bridge's."""
    if not options.round_trip:
        print(line)
        return 0 if count == len(results) else 1
    bridged_count, same = _round_trip(options, results)
    print(
        f"{line}; round trip: {bridged_count} device binaries, "
        f"identical: {'yes' if same else 'no'}"
    )
    return 0 if count == len(results) and same else 1


def main(argv=None):
    options = _parse(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    results = compile_widths(
        options.kernel,
        options.chip,
        widths_for(options.widths),
        options.dump_dir,
        options.save_dir,
    )
    count = _report_alone(results, options.verbose)
    line = f"flydsl alone: {count} device binaries"
    if options.alone:
        return _alone_main(options, results, count, line)
    produced, traced, launches_ok, same, checked = _with_flyhoist(
        options, results
    )
    which = " (those flyhoist compiled alone)"
    if options.round_trip:
        _, same = _round_trip(options, results)
        checked, which = len(results), ""
    elif not checked:  # every width was hoisted: the first one round trips
        _, same = _round_trip(options, results[:1])
        checked, which = 1, " (the first: flyhoist compiled none alone)"
    print(
        f"round trip (FlyDSL -> MLIR 22 -> FlyDSL, nothing hoisted) "
        f"compared with FlyDSL alone on {checked} of {len(results)} widths"
        + which
    )
    print(
        f"{line}; with flyhoist: {produced} device binaries, traced "
        f"{traced}; round trip identical: {'yes' if same else 'no'}"
    )
    ok = count == len(results) and same and launches_ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
