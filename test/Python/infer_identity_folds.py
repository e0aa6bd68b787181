# A width whose trace folds away: the frontend canonicalizes its trace, so at
# width 1 `seq * width` is `seq` and the trace has an op fewer than the
# template learned from other widths. Matching absorbs the fold
# (lib/Transforms/IdentityFolds.cpp): width 1 is served by the template, no
# compile, and its launch passes 1. A width whose trace changes beyond such
# a fold (`blk * (width - 1)` is the constant 0 at width 1) still compiles
# alone, with the located reason in the log.
# RUN: python3 %s 2>&1 | FileCheck %s

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'Inputs'))
from tuned_kernel import check, kernel_text  # noqa: E402

from flyhoist import Context, KernelCache  # noqa: E402
from flyhoist.matching import match_spec_params  # noqa: E402

RUNTIME = ['bt', 'out', 'seq', 'blk']
frontend = Context()


def canonicalized(text):
    """The trace as a frontend that canonicalizes its IR hands it over."""
    with frontend.parse(text, 'tuned.mlir') as module:
        module.run_pipeline('builtin.module(canonicalize,cse)')
        return module.text()


def folded(values):
    return canonicalized(kernel_text(values))


def beyond(values):
    """A kernel that also takes `blk * (width - 1)`, folded in Python: at
    width 1 the product is the constant 0 and the add of it folds too,
    which is more than an identity fold."""
    width = values['width']
    return canonicalized(f'''module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @beyond(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index,
                     %blk: index) kernel {{
      %w = arith.constant {width} : index
      %p = arith.constant {width - 1} : index
      %row = arith.muli %seq, %w : index
      %a = arith.muli %blk, %p : index
      %e = arith.addi %row, %a : index
      %v = memref.load %bt[%e] : memref<?xi32>
      memref.store %v, %out[%e] : memref<?xi32>
      gpu.return
    }}
  }}
}}
''')


def serve(cache, name, trace, widths):
    """Each width through the cache: [(width, compiled so far, specialized,
    the width the launch passes, what is wrong with the launch)]."""
    rows = []
    for width in widths:
        launch = cache.get(name, {'width': width}, trace)
        text = trace({'width': width})
        why = check(cache, name, launch, text) if name == 'tuned' else None
        rows.append((width, cache.compiled, launch.specialized,
                     launch.values.get('width'), why))
    return rows


def fresh(log):
    return KernelCache('sm_90', cache_dir=False, infer_params=True,
                       log=log.append)


# CHECK-LABEL: width 1 matches the template
print('width 1 matches the template')
log = []
cache = fresh(log)
for row in serve(cache, 'tuned', folded, (3, 5, 1, 7)):
    print(row)
# Width 3 alone, the template at 5; width 1 adds no compile, is no
# per-value object, and launches with 1 (the template at width=1 is the
# trace: check() compares them canonicalized).
# CHECK-NEXT: (3, 1, True, 3, None)
# CHECK-NEXT: (5, 2, False, 5, None)
# CHECK-NEXT: (1, 2, False, 1, None)
# CHECK-NEXT: (7, 2, False, 7, None)
launch = cache.get('tuned', {'width': 1}, folded)
passed = launch.arguments(RUNTIME)[len(RUNTIME):]
print('width 1 passes', passed[:1], 'compiled', cache.compiled)
# CHECK-NEXT: width 1 passes [1] compiled 2
# The log names no compile for width 1.
print([line for line in log if 'width=1 ' in line or 'width=1:' in line])
# CHECK-NEXT: []
cache.close()

# CHECK-LABEL: the match itself
# Through the C API (what KernelCache calls): the width-1 trace has one
# arith.muli fewer than the template, and binds width = 1.
print('the match itself')
cache = fresh([])
cache.get('tuned', {'width': 3}, folded)
cache.get('tuned', {'width': 5}, folded)
group = next(g for g in cache._inference.kernels['tuned'].groups
             if g.template is not None)
template = group.template
with template.context.parse(folded({'width': 1}), 'w1.mlir') as trace:
    # (A mul that computes a derived value is no op of the trace's.)
    muls = tuple(sum('arith.muli' in line and 'flyhoist.derived' not in line
                     for line in module.text().splitlines())
                 for module in (template, trace))
    print('muls', muls, 'width =',
          match_spec_params(template, trace)['width'])
# CHECK-NEXT: muls (2, 1) width = 1
cache.close()

# CHECK-LABEL: a structure beyond a fold
print('a structure beyond a fold')
log = []
cache = fresh(log)
for row in serve(cache, 'beyond', beyond, (3, 5, 1, 7)):
    print(row[:4])
# CHECK-NEXT: (3, 1, True, 3)
# CHECK-NEXT: (5, 2, False, 5)
# Width 1 compiles alone (a per-value object, for its own value).
# CHECK-NEXT: (1, 3, True, 1)
# CHECK-NEXT: (7, 3, False, 7)
for line in log:
    print(line)
# CHECK: compiled beyond template for width=5 in group 1: learned from 2 traces: hoists {{.*}}'width'
# Width 1 does not learn with the group either; a probe for it (the width
# moved on, to 9) has the plain structure and serves nothing.
# CHECK-NEXT: probe of beyond at width=9 serves nothing: not inferred: traces do not align: {{.*}}
# The reason: located, naming the fold taken and what differs after it.
# CHECK-NEXT: compiled beyond again for width=1 in group 2 (width=1): trace does not match the template: after taking 'arith.muli' with spec.param 'width' = 1 as folded away in the trace: 'arith.addi' vs 'memref.load' at beyond.mlir:{{[0-9]+}}:{{[0-9]+}} (beyond.mlir:{{[0-9]+}}:{{[0-9]+}} in the other trace); width=1 may fold away in the trace (x * 1, x + 0), which matching absorbs: this trace differs from the template beyond such a fold
# CHECK-NOT: compiled
cache.close()
frontend.close()
