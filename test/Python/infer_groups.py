# Inference called the way real frontends call it (Inputs/tuned_kernel.py):
# an autotuner sweeps a kept tile at one width with a key the trace does not
# show (`debug`), then many widths per tile: at most 2 compiles per tile
# value, every launch passing what its own trace bakes in. Bad input: a key
# that changes the trace only sometimes, a structure that changes with the
# value, a group that never sees a second value: compiles with a logged,
# located reason, never a wrong launch. Python-folded products of the
# width: 2 compiles.
# RUN: python3 %s 2>&1 | FileCheck %s

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'Inputs'))
from tuned_kernel import check, kernel_text  # noqa: E402

from flyhoist import KernelCache  # noqa: E402
from flyhoist.groups import derived_text  # noqa: E402

WIDTHS = (3, 40, 100, 200, 333, 500, 7, 90, 17)


def run(cache, calls, name='tuned'):
    """Every call through the cache; the launches that pass anything but
    what their own trace bakes in."""
    wrong = []
    for values in calls:
        text = kernel_text(values)
        launch = cache.get(name, values, lambda v: kernel_text(v))
        why = check(cache, name, launch, text)
        if why:
            wrong.append((values, why))
    return wrong


def fresh(log):
    return KernelCache('sm_90', cache_dir=False, infer_params=True,
                       log=log.append)


# CHECK-LABEL: autotuner
print('autotuner')
log = []
cache = fresh(log)
tiles = (16, 32, 64)
sweep = [{'tile': t, 'width': 64, 'debug': i % 2}
         for i, t in enumerate(tiles)]
per_tile = [{'tile': t, 'width': w, 'debug': (w + t) % 2}
            for t in tiles for w in WIDTHS]
wrong = run(cache, sweep + per_tile)
print(f'calls {len(sweep + per_tile)}, traced {cache.traced}, compiled '
      f'{cache.compiled}, wrong {wrong}')
# CHECK-NEXT: calls 30, traced 30, compiled 6, wrong []
# The sweep: each tile alone (the tile is a loop bound: kept, one group
# each; `debug` differs and splits nothing).
print(log[0])
# CHECK-NEXT: compiled tuned again for debug=1, tile=32, width=64 in group 2 (debug=1, tile=32, width=64): 'tile' kept specialized: loop bound or step at tuned.mlir:{{[0-9]+}}:{{[0-9]+}}
# Then one template per tile value.
for line in log[2:]:
    print(line)
# CHECK-NEXT: compiled tuned template for debug=1, tile=16, width=3 in group 4 (debug=1, tile=16): split from group 2 (debug=1, tile=32, width=64): hoists 'p0', 'width'; 'tile' kept specialized: loop bound or step at tuned.mlir:12:7
# CHECK-NEXT: compiled tuned template for debug=1, tile=32, width=3 in group 2 (debug=1, tile=32): learned from 2 traces: hoists 'p0', 'width'
# CHECK-NEXT: compiled tuned template for debug=1, tile=64, width=3 in group 5 (debug=1, tile=64): split from group 2 (debug=1, tile=32): hoists 'p0', 'width'; 'tile' kept specialized: loop bound or step at tuned.mlir:12:7
# CHECK-NOT: compiled
print('specialized:', sum(cache.get('tuned', v, kernel_text).specialized
                          for v in sweep + per_tile))
# CHECK: specialized: 3
cache.close()

# CHECK-LABEL: a key that changes the trace only sometimes
print('a key that changes the trace only sometimes')
log = []
cache = fresh(log)
calls = [{'width': w, 'checks': 1} for w in (64, 100, 300, 400, 500, 7, 600)]
wrong = run(cache, calls)
print(f'traced {cache.traced}, compiled {cache.compiled}, wrong {wrong}')
# Two groups: narrow rows (no check) and wide ones (a check more).
# CHECK-NEXT: traced 7, compiled 4, wrong []
print(log[0])
# CHECK-NEXT: compiled tuned template for checks=1, width=100 in group 1 (checks=1): learned from 2 traces: hoists 'p0', 'width'
print(log[1])
# CHECK-NEXT: compiled tuned again for checks=1, width=300 in group 2 (checks=1, width=300): trace does not match the template: 'scf.for' vs 'arith.cmpi' at tuned.mlir:12:7 (tuned.mlir:13:13 in the other trace)
cache.close()

# CHECK-LABEL: structure that changes with the value
print('structure that changes with the value')
log = []
cache = fresh(log)
calls = [{'width': 8, 'tile': t, 'unroll': 1} for t in (1, 2, 3)]
wrong = run(cache, calls)
print(f'traced {cache.traced}, compiled {cache.compiled}, wrong {wrong}')
# CHECK-NEXT: traced 3, compiled 3, wrong []
print(log[0])
# CHECK-NEXT: compiled tuned again for tile=2, unroll=1, width=8 in group 2 (tile=2, unroll=1, width=8): not inferred: traces do not align: 'arith.addi' vs 'gpu.return' at tuned.mlir:13:13 (tuned.mlir:13:7 in the other trace); tile=1 folds away in the trace (x * 1, x + 0): its trace has its own structure and is compiled for that value alone
cache.close()

# CHECK-LABEL: a group that never sees a second value
print('a group that never sees a second value')
log = []
cache = fresh(log)
calls = [{'width': w, 'tile': 64} for w in (8, 16, 24)] + \
    [{'width': 8, 'tile': 128}] + [{'width': 32, 'tile': 64}]
wrong = run(cache, calls)
print(f'traced {cache.traced}, compiled {cache.compiled}, wrong {wrong}')
# Width 8 at tile 128 is compiled once (a template split off tile 64's,
# which no other value of tile 128 uses).
# CHECK-NEXT: traced 5, compiled 3, wrong []
print(log[1])
# CHECK-NEXT: compiled tuned template for tile=128, width=8 in group 2 (tile=128): split from group 1 (tile=64): hoists 'p0', 'width'; 'tile' kept specialized: loop bound or step at tuned.mlir:12:7
cache.close()

# CHECK-LABEL: Python-folded products
print('Python-folded products')
log = []
cache = fresh(log)
calls = [{'width': w, 'products': 1, 'stride': 8}
         for w in (64, 101) + WIDTHS]
wrong = run(cache, calls)
print(f'traced {cache.traced}, compiled {cache.compiled}, wrong {wrong}')
# CHECK-NEXT: traced 11, compiled 2, wrong []
print(log[0])
# CHECK-NEXT: compiled tuned template for products=1, stride=8, width=101 in group 1 (products=1, stride=8): learned from 2 traces: hoists 'p0', 'p1', 'p2', 'width'

# CHECK-LABEL: derived values
# From the third trace on, the parameters that are affine in the width are
# derived from it and checked on every match: 4*w (twice, one parameter),
# 16*w*8/4 folded in Python, w + 1.
print('derived values')
launch = cache.get('tuned', {'width': 17, 'products': 1, 'stride': 8},
                   kernel_text)
derived = getattr(launch.variant, 'derived', {})
print(sorted(derived_text(n, r) for n, r in derived.items()))
# CHECK-NEXT: ['p0 = 4*width', 'p1 = 32*width', 'p2 = width + 1']
# A trace whose constant is not the map's (another stride at width 333):
# the match disagrees with the derivation and the group is learned again
# from its three traces: inference computes p0 and p2 from the width in the
# kernel (the launch passes the width and p1 alone), which is a new
# template, compiled once; p1 no longer fits and stays a parameter.
log.clear()
values = {'width': 333, 'products': 1, 'stride': 9}
launch = cache.get('tuned', values, kernel_text)
print(f'compiled {cache.compiled},', check(cache, 'tuned', launch,
                                           kernel_text(values)))
# CHECK-NEXT: compiled 3, None
print(log[0])
# CHECK-NEXT: compiled tuned template for products=1, stride=9, width=333 in group 1 (products=1): widened from 3 traces: hoists 'p1', 'width' (the template missed: a derived value disagrees: p1 = 32*width gives 10656 at width=333, the trace has 11988); computed in the kernel: p0 = 4*width, p2 = width + 1
# Later widths of either stride match the new template: no compile.
for values in ({'width': 45, 'products': 1, 'stride': 8},
               {'width': 46, 'products': 1, 'stride': 9}):
    launch = cache.get('tuned', values, kernel_text)
    print(f'compiled {cache.compiled},', sorted(launch.variant.hoisted),
          check(cache, 'tuned', launch, kernel_text(values)))
# CHECK-NEXT: compiled 3, ['p1', 'width'] None
# CHECK-NEXT: compiled 3, ['p1', 'width'] None
cache.close()

# CHECK-LABEL: locations from the frontend's source
# A trace that carries loc("file.py":line:col) is located there in the log.
print('locations from the frontend\'s source')
log = []
cache = fresh(log)
calls = [{'width': 8, 'tile': t, 'locs': 1} for t in (16, 32)] + \
    [{'width': 8, 'tile': 2, 'unroll': 1, 'locs': 1}]
wrong = run(cache, calls)
print(f'compiled {cache.compiled}, wrong {wrong}')
# CHECK-NEXT: compiled 3, wrong []
for line in log:
    print(line)
# CHECK-NEXT: compiled tuned again for locs=1, tile=32, width=8 in group 2 (locs=1, tile=32, width=8): 'tile' kept specialized: loop bound or step at tuned_kernel.py:112:9
# CHECK-NEXT: compiled tuned again for locs=1, tile=2, unroll=1, width=8 in group 3 (locs=1, tile=2, unroll=1, width=8): not inferred: traces do not align: 'arith.addi' vs 'scf.for' at tuned_kernel.py:107:9 (tuned_kernel.py:112:9 in the other trace)
cache.close()

# CHECK-LABEL: a width that folds away
# The frontend canonicalizes its trace: at width 1, seq * 1 folds away and
# the trace has another structure. It is compiled alone and named as such.
print('a width that folds away')
from flyhoist import Context  # noqa: E402

frontend = Context()


def folded(values):
    with frontend.parse(kernel_text(values), 'tuned.mlir') as module:
        module.run_pipeline('builtin.module(canonicalize,cse)')
        return module.text()


log = []
cache = fresh(log)
wrong = []
for width in (8, 16, 1, 24):
    launch = cache.get('tuned', {'width': width}, folded)
    why = check(cache, 'tuned', launch, folded({'width': width}))
    if why:
        wrong.append((width, why))
print(f'compiled {cache.compiled}, wrong {wrong}')
# CHECK-NEXT: compiled 3, wrong []
print(log[1])
# CHECK-NEXT: compiled tuned again for width=1 in group 2 (width=1): trace does not match the template: {{.*}}; width=1 folds away in the trace (x * 1, x + 0): its trace has its own structure and is compiled for that value alone
cache.close()
frontend.close()
