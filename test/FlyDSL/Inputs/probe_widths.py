"""Widths of the paged gather through flyhoist in FlyDSL's JIT, with
FlyDSL's disk cache on (COMPILE_ONLY, gfx942), for probe.test.

    probe_widths.py CACHE_DIR [--guarded] WIDTH...

Prints, per width, how flyhoist served it, the values its artifact's launch
passes and whether they are the values matched from its own trace; then the
device binaries FlyDSL's gpu-module-to-binary made, and every file under
CACHE_DIR (FlyDSL's cache: one directory per launcher, a .pkl and a .lock
per compiled specialization). --guarded: the launcher also closes over
`lanes = 64` and asserts it, so the probe at lanes = 65 raises.
"""

import os
import sys

FRONTEND = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
    "frontends", "flydsl",
)
sys.path.insert(0, os.path.abspath(FRONTEND))


def guarded_launcher(width):
    """The gather's launcher, plus a closure int it checks at trace time."""
    import flydsl.compiler as flyc
    import flydsl.expr as fx
    from paged_gather import build_paged_gather

    max_tokens = width * 16
    kernel, threads = build_paged_gather(width, 16, 128, max_tokens)
    lanes = 64

    @flyc.jit
    def launch_guarded_gather(
        out: fx.Tensor,
        kv_cache: fx.Tensor,
        block_tables: fx.Tensor,
        stream: fx.Stream = fx.Stream(None),
    ):
        assert lanes == 64, f"lanes must be 64, got {lanes}"
        kernel(out, kv_cache, block_tables).launch(
            grid=(max_tokens, 2, 1), block=(threads, 1, 1), stream=stream
        )

    return launch_guarded_gather


def main(argv):
    cache_dir, rest = argv[0], argv[1:]
    guarded = "--guarded" in rest
    widths = [int(w) for w in rest if w != "--guarded"]
    os.environ.update(
        COMPILE_ONLY="1",
        ARCH="gfx942",
        FLYDSL_RUNTIME_ENABLE_CACHE="1",
        FLYDSL_RUNTIME_CACHE_DIR=cache_dir,
        FLYDSL_COMPILE_BACKEND="flyhoist",
        FLYDSL_RUNTIME_KIND="rocm",
    )
    import backend
    import compile_widths
    import hoist
    import widths_hoist

    backend.register()
    for width in widths:
        launch, args = compile_widths._launcher_and_args("gather", width)
        if guarded:
            launch = guarded_launcher(width)
        before = len(hoist.LAUNCHES)
        launch(*args)
        if len(hoist.LAUNCHES) == before:
            print(f"width {width}: FlyDSL's own compile")
            continue
        record = hoist.LAUNCHES[-1]
        expected = [v for _, v in sorted(record["hoisted"].values())]
        seen = widths_hoist.launch_values(launch, len(expected))
        same = bool(seen) and all(values == expected for values in seen)
        print(
            f"width {width}: {record['how']}; launch passes {seen[0]}; "
            f"as matched from its own trace: {'yes' if same else 'NO'}"
        )
    print(
        f"device binaries: {hoist.STATS['binaries']}; "
        f"probes: {hoist.STATS['probes']}"
    )
    for root, _, files in sorted(os.walk(cache_dir)):
        for name in sorted(files):
            path = os.path.relpath(os.path.join(root, name), cache_dir)
            print(f"cache: {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
