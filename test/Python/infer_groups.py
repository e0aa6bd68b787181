# Inference called the way real frontends call it (Inputs/tuned_kernel.py):
# an autotuner sweeps a kept tile at one width with a key the trace does not
# show (`debug`), then many widths per tile: at most 2 compiles per tile
# value, every launch passing what its own trace bakes in. Bad input: a key
# that changes the trace only sometimes, a structure that changes with the
# value, a group that never sees a second value: compiles with a logged,
# located reason, never a wrong launch. Python-folded products of the
# width: 2 compiles, the width the kernel's one argument.
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
# Each template also traced one probe (a value not asked for, not compiled).
# CHECK-NEXT: calls 30, traced 33, compiled 6, wrong []
# The sweep: each tile alone (the tile is a loop bound: kept, one group
# each; `debug` differs and splits nothing).
print(log[0])
# CHECK-NEXT: compiled tuned again for debug=1, tile=32, width=64 in group 2 (debug=1, tile=32, width=64): 'tile' kept specialized: loop bound or step at tuned.mlir:{{[0-9]+}}:{{[0-9]+}}
# Then one template per tile value.
for line in log[2:]:
    print(line)
# CHECK-NEXT: compiled tuned template for debug=1, tile=16, width=3 in group 4 (debug=1, tile=16): split from group 2 (debug=1, tile=32, width=64): hoists 'width'; 'tile' kept specialized: loop bound or step at tuned.mlir:12:7; computed in the kernel: p0 = 4*width; probed at tile=48, width=125 (traced, not compiled)
# CHECK-NEXT: compiled tuned template for debug=1, tile=32, width=3 in group 2 (debug=1, tile=32): learned from 2 traces: hoists 'width'; computed in the kernel: p0 = 4*width; probed at width=125 (traced, not compiled)
# CHECK-NEXT: compiled tuned template for debug=1, tile=64, width=3 in group 5 (debug=1, tile=64): split from group 2 (debug=1, tile=32): hoists 'width'; 'tile' kept specialized: loop bound or step at tuned.mlir:12:7; computed in the kernel: p0 = 4*width; probed at tile=96, width=125 (traced, not compiled)
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
# Two groups: narrow rows (no check) and wide ones (a check more). Width
# 300 does not align with the narrow rows' traces: it learns its template
# with a probe at once (the width moved on, to 500): one compile.
# CHECK-NEXT: traced 10, compiled 3, wrong []
print(log[0])
# CHECK-NEXT: compiled tuned template for checks=1, width=100 in group 1 (checks=1): learned from 2 traces: hoists 'width'; computed in the kernel: p0 = 4*width; probed at width=136 (traced, not compiled)
print(log[1])
# CHECK-NEXT: compiled tuned template for checks=1, width=300 in group 2 (checks=1): learned with a probe at width=500 (traced, not compiled), not with group 1 (checks=1) (not inferred: traces do not align: 'arith.cmpi' vs 'scf.for' at tuned.mlir:13:13 (tuned.mlir:12:7 in the other trace)): hoists 'width'; computed in the kernel: p0 = 4*width; probed at width=700 (traced, not compiled)
cache.close()

# CHECK-LABEL: structure that changes with the value
print('structure that changes with the value')
log = []
cache = fresh(log)
calls = [{'width': 8, 'tile': t, 'unroll': 1} for t in (1, 2, 3)]
wrong = run(cache, calls)
print(f'traced {cache.traced}, compiled {cache.compiled}, wrong {wrong}')
# A probe for tile 2 (tile 3) unrolls differently again: dropped.
# CHECK-NEXT: traced 5, compiled 3, wrong []
print(log[0])
# CHECK-NEXT: probe of tuned at tile=3 serves nothing: not inferred: traces do not align: {{.*}}
print(log[1])
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
# which no other value of tile 128 uses). Two probes: tile 64's template
# takes the width alone after one (width 24); tile 128's (tile 192, the one
# value that changed since the group's first trace) shows no third width,
# a trace for nothing.
# CHECK-NEXT: traced 7, compiled 3, wrong []
print(log[1])
# CHECK-NEXT: compiled tuned template for tile=128, width=8 in group 2 (tile=128): split from group 1 (tile=64): hoists 'p0', 'width'; 'tile' kept specialized: loop bound or step at tuned.mlir:12:7
cache.close()

# CHECK-LABEL: Python-folded products
# 4*w (twice, one parameter), 16*w*8/4 folded in Python, w + 1: two traces
# make four parameters of them; a third trace, which inference asks the
# frontend for (a probe, traced but never compiled or launched), shows them
# affine in the width, and the kernel computes them from it: 2 compiles,
# one kernel argument.
print('Python-folded products')
log = []
cache = fresh(log)
calls = [{'width': w, 'products': 1, 'stride': 8}
         for w in (64, 101) + WIDTHS]
wrong = run(cache, calls)
print(f'traced {cache.traced}, probed {cache.probed}, compiled '
      f'{cache.compiled}, wrong {wrong}')
# CHECK-NEXT: traced 12, probed 1, compiled 2, wrong []
print(log[0])
# CHECK-NEXT: compiled tuned template for products=1, stride=8, width=101 in group 1 (products=1, stride=8): learned from 2 traces: hoists 'width'; computed in the kernel: p0 = 4*width, p1 = 32*width, p2 = width + 1; probed at width=138 (traced, not compiled)
launch = cache.get('tuned', {'width': 17, 'products': 1, 'stride': 8},
                   kernel_text)
print(sorted(launch.variant.hoisted), launch.specialized)
# CHECK-NEXT: ['width'] False
# A trace whose constant is not the computed one (another stride at width
# 333): matching evaluates the kernel's `32*width` at 333 and refutes it;
# the group is learned again from its three traces: p0 and p2 are still
# computed from the width, p1 is a parameter of its own. One compile.
values = {'width': 333, 'products': 1, 'stride': 9}
launch = cache.get('tuned', values, kernel_text)
print(f'compiled {cache.compiled},', check(cache, 'tuned', launch,
                                           kernel_text(values)))
# CHECK-NEXT: compiled 3, None
print(log[-1])
# CHECK-NEXT: compiled tuned template for products=1, stride=9, width=333 in group 1 (products=1): widened from 3 traces: hoists 'p1', 'width' (the template missed: trace does not match the template: operand 1 is a value derived for 'p1' (10656 for the trace's roots) in the template and constant 11988 in the trace at tuned.mlir:{{[0-9]+}}:{{[0-9]+}} (tuned.mlir:{{[0-9]+}}:{{[0-9]+}} in the other trace)); computed in the kernel: p0 = 4*width, p2 = width + 1
# Later widths of either stride match the new template: no compile.
for values in ({'width': 45, 'products': 1, 'stride': 8},
               {'width': 46, 'products': 1, 'stride': 9}):
    launch = cache.get('tuned', values, kernel_text)
    print(f'compiled {cache.compiled},', sorted(launch.variant.hoisted),
          check(cache, 'tuned', launch, kernel_text(values)))
# CHECK-NEXT: compiled 3, ['p1', 'width'] None
# CHECK-NEXT: compiled 3, ['p1', 'width'] None
cache.close()

# CHECK-LABEL: a frontend that refuses the probe
# The probe's value is one the frontend never asked for: a trace that
# raises for it leaves the template as two traces make it (four
# arguments), logged; from the third distinct width the launch derives the
# products from the width and checks each match against them.
print('a frontend that refuses the probe')
log = []
cache = fresh(log)
asked = set()


def picky(values):
    if values['width'] not in asked:
        raise ValueError(f'width {values["width"]} is not supported')
    return kernel_text(values)


for w in (64, 101) + WIDTHS:
    values = {'width': w, 'products': 1, 'stride': 8}
    asked.add(w)
    launch = cache.get('tuned', values, picky)
    assert check(cache, 'tuned', launch, kernel_text(values)) is None
print(f'traced {cache.traced}, probed {cache.probed}, compiled '
      f'{cache.compiled}')
# CHECK-NEXT: traced 11, probed 0, compiled 2
print(log[0])
# CHECK-NEXT: probe of tuned at width=138 not traced (ValueError: width 138 is not supported)
print(log[1])
# CHECK-NEXT: compiled tuned template for products=1, stride=8, width=101 in group 1 (products=1, stride=8): learned from 2 traces: hoists 'p0', 'p1', 'p2', 'width'
derived = getattr(launch.variant, 'derived', {})
print(sorted(derived_text(n, r) for n, r in derived.items()))
# CHECK-NEXT: ['p0 = 4*width', 'p1 = 32*width', 'p2 = width + 1']
cache.close()

# CHECK-LABEL: a probe that does not align
# Widths past 256 trace a check more: a probe there does not align, is
# logged and dropped; the template is the two traces'.
print('a probe that does not align')
log = []
cache = fresh(log)
wrong = run(cache, [{'width': w, 'checks': 1} for w in (150, 250, 170)])
print(f'traced {cache.traced}, probed {cache.probed}, compiled '
      f'{cache.compiled}, wrong {wrong}')
# CHECK-NEXT: traced 4, probed 1, compiled 2, wrong []
print(log[0])
# CHECK-NEXT: probe of tuned at width=350 does not align: {{.*}}'scf.for' vs 'arith.cmpi'{{.*}}
print(log[1])
# CHECK-NEXT: compiled tuned template for checks=1, width=250 in group 1 (checks=1): learned from 2 traces: hoists 'p0', 'width'
cache.close()

# CHECK-LABEL: probes turned off
# KernelCache(probe_traces=False): the frontend is traced at the values it
# asks for only.
print('probes turned off')
log = []
cache = KernelCache('sm_90', cache_dir=False, infer_params=True,
                    probe_traces=False, log=log.append)
wrong = run(cache, [{'width': w, 'products': 1, 'stride': 8}
                    for w in (64, 101, 3)])
print(f'traced {cache.traced}, probed {cache.probed}, compiled '
      f'{cache.compiled}, wrong {wrong}')
# CHECK-NEXT: traced 3, probed 0, compiled 2, wrong []
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
# CHECK-NEXT: probe of tuned at tile=62 serves nothing: not inferred: traces do not align: 'arith.addi' vs 'scf.for' at tuned_kernel.py:107:9 (tuned_kernel.py:112:9 in the other trace)
# CHECK-NEXT: compiled tuned again for locs=1, tile=2, unroll=1, width=8 in group 3 (locs=1, tile=2, unroll=1, width=8): not inferred: traces do not align: 'arith.addi' vs 'scf.for' at tuned_kernel.py:107:9 (tuned_kernel.py:112:9 in the other trace)
cache.close()

# CHECK-LABEL: a width that folds away
# The frontend canonicalizes its trace: at width 1, seq * 1 folds away and
# the trace has one op fewer. Matching takes the template's multiply as
# folded (the width bound to 1, the identity): served by the template, no
# compile, its launch passing 1.
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
launches = {}
for width in (8, 16, 1, 24):
    launch = launches[width] = cache.get('tuned', {'width': width}, folded)
    why = check(cache, 'tuned', launch, folded({'width': width}))
    if why:
        wrong.append((width, why))
print(f'compiled {cache.compiled}, wrong {wrong}, log {len(log)}')
# CHECK-NEXT: compiled 2, wrong [], log 1
print(sorted(launches[1].variant.hoisted), launches[1].specialized,
      launches[1].variant is launches[24].variant)
# CHECK-NEXT: ['width'] False True
cache.close()
frontend.close()

# CHECK-LABEL: a folded width first
# Width 1 comes first: its trace has its own structure, and width 5 cannot
# learn with it. Width 5 learns its template with a probe at once (the
# width moved on: 9): 2 compiles, and width 1 stays its own object.
print('a folded width first')
frontend = Context()
log = []
cache = fresh(log)
wrong = []
for width in (1, 5, 9, 13, 100):
    launch = cache.get('tuned', {'width': width}, folded)
    why = check(cache, 'tuned', launch, folded({'width': width}))
    if why:
        wrong.append((width, why))
print(f'traced {cache.traced}, probed {cache.probed}, compiled '
      f'{cache.compiled}, wrong {wrong}')
# CHECK-NEXT: traced 7, probed 2, compiled 2, wrong []
print(log[-1])
# CHECK-NEXT: compiled tuned template for width=5 in group 2: learned with a probe at width=9 (traced, not compiled), not with group 1 (width=1) (not inferred: traces do not align: {{.*}}; width=1 folds away in the trace {{.*}}): hoists 'width'; computed in the kernel: p0 = 4*width; probed at width=13 (traced, not compiled)
cache.close()
frontend.close()
