#!/usr/bin/env python3
"""A JIT frontend that marks nothing: flyhoist learns its values from traces.

The frontend's tracer knows nothing of flyhoist: its kernel's width enters
through Python arithmetic (a row offset `seq * width`, a byte stride
`4 * width`) and the tracer emits plain `arith.constant`s, then runs
canonicalize and CSE as a DSL does, which merges equal constants (at width
64 the byte stride 256 and the unrelated tile size 256 become one SSA
value). `KernelCache(target, infer_params=True)` traces every new width,
learns from the first two traces which constants are the width, hoists them
and matches each later trace against that template (python/flyhoist/infer.py,
docs/INTEGRATION.md "A frontend that marks nothing").

  examples/auto_frontend.py [--widths 125] [--cache-dir DIR] [--chip gfx942]
                            [--variant stride|loop|type] [--autotune]
                            [--first N]

  stride  the width only scales addresses: 2 compiles for every width
  loop    the width is also a loop bound: a compile per width, each logged
  type    the width is folded into a memref type: a compile per width, logged
          with the location where the traces differ

--autotune calls it as an autotuner does: the loop's tile (a loop bound:
kept) swept over 64, 128 and 256 at width 64 with a key the trace does not
show (`debug`), then every width per tile: at most 2 compiles per tile.
--first N skips the first N widths (a second process on the same
--cache-dir then sees only widths the first did not).
"""

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'python'))

import flyhoist  # noqa: E402

TILE = 256  # the kernel's tile size: unrelated to the width


class Tracer:
    """A naive tracer: every Python int an op needs becomes a constant right
    before it; the module is then canonicalized, as a DSL's pipeline does."""

    def __init__(self, context):
        self.context = context
        self.lines = []
        self.count = 0

    def value(self, text):
        self.count += 1
        name = f'%v{self.count}'
        self.lines.append(f'      {name} = {text}')
        return name

    def const(self, number):
        return self.value(f'arith.constant {number} : index')

    def mul(self, a, b):
        return self.value(f'arith.muli {a}, {b} : index')

    def add(self, a, b):
        return self.value(f'arith.addi {a}, {b} : index')


def trace_kernel(context, variant, width, tile=TILE):
    """The kernel for `width` (and `tile`, the loop's bound), as MLIR text
    with plain constants."""
    t = Tracer(context)
    # bt[seq * width + blk]: the width is a row stride.
    row = t.add(t.mul('%seq', t.const(width)), '%blk')
    t.lines.append(f'      %id = memref.load %bt[{row}] : memref<?xi32>')
    t.lines.append('      %page = arith.index_cast %id : i32 to index')
    # The page's byte offset: a row of `width` 4-byte entries, 4 * width
    # folded in Python, past a header of one tile.
    byte = t.add(t.mul('%page', t.const(4 * width)), t.const(TILE))
    t.lines.append(f'      %x = memref.load %bytes[{byte}] : memref<?xi8>')
    # A loop over one tile (its bound is the tile size, whatever the width).
    bound = t.const(tile if variant != 'loop' else width)
    zero, one = t.const(0), t.const(1)
    t.lines.append(f'      scf.for %k = {zero} to {bound} step {one} {{')
    t.lines.append('        memref.store %x, %out[%k] : memref<?xi8>')
    t.lines.append('      }')
    if variant == 'type':
        t.lines.append(f'      %view = memref.reinterpret_cast %out to '
                       f'offset: [0], sizes: [{width}], strides: [1] : '
                       f'memref<?xi8> to memref<{width}xi8>')
        t.lines.append(f'      memref.store %x, %view[{zero}] : '
                       f'memref<{width}xi8>')
    body = '\n'.join(t.lines)
    text = f'''module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @gather(%bt: memref<?xi32>, %bytes: memref<?xi8>,
                     %out: memref<?xi8>, %seq: index, %blk: index) kernel {{
{body}
      gpu.return
    }}
  }}
  func.func @host(%bt: memref<?xi32>, %bytes: memref<?xi8>,
                  %out: memref<?xi8>, %seq: index, %blk: index) {{
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@gather blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%bt : memref<?xi32>, %bytes : memref<?xi8>, %out : memref<?xi8>,
             %seq : index, %blk : index)
    return
  }}
}}
'''
    # What the DSL's own pipeline does before it hands the module over.
    with context.parse(text, 'auto_frontend.py') as module:
        module.run_pipeline('builtin.module(canonicalize,cse)')
        return module.text()


def widths_for(count):
    """64 first (where the byte stride meets the tile size), then `count`
    - 1 more spread over 2..512. (At width 1 canonicalize folds `seq * 1`
    away: a trace of another structure, compiled for that width alone.)"""
    widths = [64]
    step = 510 / max(count - 1, 1)
    candidate = 0
    while len(widths) < count:
        width = 2 + round(candidate * step) % 511
        candidate += 1
        if width not in widths:
            widths.append(width)
        if candidate > 4 * count + 1024:
            width = max(widths) + 1
            widths.append(width)
    return widths


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--widths', type=int, default=125)
    parser.add_argument('--cache-dir', help='on-disk code object cache '
                        '(default: a fresh temporary folder)')
    parser.add_argument('--chip', default='gfx942')
    parser.add_argument('--variant', default='stride',
                        choices=('stride', 'loop', 'type'))
    parser.add_argument('--lib', help='path of libFlyHoistMLIRCAPI.so')
    parser.add_argument('--autotune', action='store_true')
    parser.add_argument('--first', type=int, default=0)
    args = parser.parse_args()
    if args.lib:
        os.environ['FLYHOIST_CAPI_LIB'] = args.lib

    frontend = flyhoist.Context()
    widths = widths_for(args.widths + args.first)[args.first:]
    calls = [{'width': w} for w in widths]
    if args.autotune:
        tiles = (64, 128, 256)
        calls = [{'width': 64, 'tile': t, 'debug': i % 2}
                 for i, t in enumerate(tiles)] + \
            [{'width': w, 'tile': t, 'debug': w % 2}
             for t in tiles for w in widths]
    log = []
    with tempfile.TemporaryDirectory() as scratch:
        cache = flyhoist.KernelCache(flyhoist.Target(args.chip),
                                     cache_dir=args.cache_dir or scratch,
                                     infer_params=True, log=log.append)
        wrong = run(cache, frontend, args, calls)
        print(f'every launch passes what its own trace baked in: '
              f'{"yes" if not wrong else f"no, {wrong}"}')
        print(f'recompile log: {len(log)} lines')
        for line in log[:3]:
            print(f'  {line}')
        cache.close()
    frontend.close()
    return 1 if wrong else 0


def run(cache, frontend, args, calls):
    """Every call through the cache; the calls whose launch passes anything
    but what its own trace baked in."""
    runtime = ['bt', 'bytes', 'out', 'seq', 'blk']
    start = time.perf_counter()
    launches = []
    for values in calls:
        launch = cache.get('gather', values, lambda v: trace_kernel(
            frontend, args.variant, v['width'], v.get('tile', TILE)))
        launches.append((values, launch, launch.arguments(runtime)))
    elapsed = time.perf_counter() - start
    what = 'autotuner calls' if args.autotune else 'widths'
    print(f'variant {args.variant}: {len(calls)} {what}, first '
          f'{calls[0]["width"]}; traced {cache.traced}, compiled '
          f'{cache.compiled}, from disk {cache.disk_hits} '
          f'({elapsed:.2f} s)')
    # Each hoisted parameter must carry what the width's own trace baked
    # in: `width` the width, `p0` the byte stride 4 * width; a per-value
    # object takes none.
    wrong = []
    for values, launch, arguments in launches:
        width = values['width']
        baked = {'width': width, 'p0': 4 * width}
        hoisted = launch.variant.kernels.get('@kernels::@gather', [])
        passed = arguments[len(runtime):]
        if arguments[:len(runtime)] != runtime or \
                passed != [baked.get(h.name) for h in hoisted] or \
                launch.specialized == bool(passed):
            wrong.append(values)
    print(f'width {calls[-1]["width"]}: launch args {launches[-1][2]}')
    return wrong


if __name__ == '__main__':
    sys.exit(main())
