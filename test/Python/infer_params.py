# KernelCache(infer_params=True) with a trace that emits plain constants:
# the first value compiles, the second infers and compiles the template,
# later values are traced and matched (traced grows, compiled does not) and
# launch with the constants of their own trace. Bad input: a trace that
# raises, one trace only, traces of another kernel, a later trace that
# differs in one op or in a constant the template holds: a clear error or a
# compile for that value with one logged line, never a wrong launch.
# RUN: env FLYHOIST_LOG=recompiles python3 %s 2>&1 | FileCheck %s


from flyhoist import KernelCache, Target


def kernel_text(width, tile=256, extra_op=False, other_kernel=False):
    """A gather kernel for `width`, as a tracer with no spec.param emits it:
    the row stride and the byte stride 4 * width as plain constants."""
    extra = ('      %e = arith.addi %i, %blk : index\n'
             '      memref.store %v, %out[%e] : memref<?xi32>\n'
             if extra_op else '')
    name = 'other' if other_kernel else 'gather'
    return f'''module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @{name}(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index,
                     %blk: index) kernel {{
      %w = arith.constant {width} : index
      %s = arith.constant {4 * width} : index
      %t = arith.constant {tile} : index
      %row = arith.muli %seq, %w : index
      %i = arith.addi %row, %blk : index
      %v = memref.load %bt[%i] : memref<?xi32>
      %b = arith.muli %blk, %s : index
      %o = arith.addi %b, %t : index
      memref.store %v, %out[%o] : memref<?xi32>
{extra}      gpu.return
    }}
  }}
  func.func @host(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index,
                  %blk: index) {{
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@{name} blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%bt : memref<?xi32>, %out : memref<?xi32>, %seq : index,
             %blk : index)
    return
  }}
}}
'''


def trace(values):
    width = values['width']
    if width == 13:
        raise ValueError('the frontend cannot trace width 13')
    return kernel_text(width, tile=512 if width == 999 else 256,
                       extra_op=width == 777)


def say(*args):
    print(*args, flush=True)


RUNTIME = ['bt', 'out', 'seq', 'blk']
cache = KernelCache(Target('sm_90'), cache_dir=False, infer_params=True)

# CHECK-LABEL: widths
say('widths')
launches = {w: cache.get('gather', {'width': w}, trace)
            for w in (64, 128, 3, 40, 500)}
say(f'traced {cache.traced}, compiled {cache.compiled}')
# Two traces show two parameters (the width and the byte stride 4*width);
# one probe (a third width, traced, never compiled) shows p0 affine in the
# width: the kernel computes it, the launch passes the width alone.
# CHECK-NEXT: [flyhoist] compiled gather template for width=128 in group 1: learned from 2 traces: hoists 'width'; computed in the kernel: p0 = 4*width; probed at width=192 (traced, not compiled)
# CHECK-NEXT: traced 6, compiled 2
say('first:', launches[64].specialized, launches[64].arguments(RUNTIME))
# The first value's own compile: a per-value object.
# CHECK-NEXT: first: True ['bt', 'out', 'seq', 'blk']
for w in (128, 3, 40, 500):
    say(w, launches[w].arguments(RUNTIME))
# CHECK-NEXT: 128 ['bt', 'out', 'seq', 'blk', 128]
# CHECK-NEXT: 3 ['bt', 'out', 'seq', 'blk', 3]
# CHECK-NEXT: 40 ['bt', 'out', 'seq', 'blk', 40]
# CHECK-NEXT: 500 ['bt', 'out', 'seq', 'blk', 500]
say('one template object:',
    len({id(launches[w].objects) for w in (128, 3, 40, 500)}))
# CHECK-NEXT: one template object: 1
cache.get('gather', {'width': 40}, trace)
say(f'again 40: traced {cache.traced}, hits {cache.hits}')
# CHECK-NEXT: again 40: traced 6, hits 1

# CHECK-LABEL: a trace that raises
say('a trace that raises')
try:
    cache.get('gather', {'width': 13}, trace)
except ValueError as error:
    say('raised:', error)
say(f'traced {cache.traced}, compiled {cache.compiled}')
say('after:', cache.get('gather', {'width': 14}, trace).arguments(RUNTIME))
# CHECK-NEXT: raised: the frontend cannot trace width 13
# CHECK-NEXT: traced 6, compiled 2
# CHECK-NEXT: after: ['bt', 'out', 'seq', 'blk', 14]

# CHECK-LABEL: one op more
say('one op more')
launch = cache.get('gather', {'width': 777}, trace)
# Its probe (another width, traced) has the plain structure again: it
# serves nothing, and width 777 is compiled alone.
# CHECK-NEXT: [flyhoist] probe of gather at width=1426 serves nothing: not inferred: traces do not align: 'arith.addi' vs 'gpu.return' at gather.mlir:14:12 (gather.mlir:14:7 in the other trace)
# CHECK-NEXT: [flyhoist] compiled gather again for width=777 in group 2 (width=777): trace does not match the template: 'gpu.return' vs 'arith.addi' at gather.mlir:14:7 (gather.mlir:14:12 in the other trace)
say(f'traced {cache.traced}, compiled {cache.compiled}',
    launch.arguments(RUNTIME))
# CHECK-NEXT: traced 9, compiled 3 ['bt', 'out', 'seq', 'blk']

# CHECK-LABEL: an invariant constant changes
say('an invariant constant changes')
launch = cache.get('gather', {'width': 999}, trace)
# A trace that differs from the template only in an integer constant
# widens it: the tile becomes a parameter too (p1), compiled once; the byte
# stride p0 = 4*width is still computed in the kernel from the width.
# CHECK-NEXT: [flyhoist] compiled gather template for width=999 in group 1: widened from 3 traces: hoists 'p1', 'width' (the template missed: trace does not match the template: operand 1 is constant 256 in the template and constant 512 in the trace at gather.mlir:12:12 (gather.mlir:12:12 in the other trace)); computed in the kernel: p0 = 4*width
say(f'traced {cache.traced}, compiled {cache.compiled}',
    launch.arguments(RUNTIME), launch.specialized)
# CHECK-NEXT: traced 10, compiled 4 ['bt', 'out', 'seq', 'blk', 512, 999] False
# The widened template serves the widths of either tile.
say('later:', cache.get('gather', {'width': 256}, trace).arguments(RUNTIME),
    cache.compiled)
# CHECK-NEXT: later: ['bt', 'out', 'seq', 'blk', 256, 256] 4

# CHECK-LABEL: one trace
say('one trace')
single = KernelCache(Target('sm_90'), cache_dir=False, infer_params=True)
launch = single.get('gather', {'width': 8}, trace)
say(f'traced {single.traced}, compiled {single.compiled}',
    launch.arguments(RUNTIME))
# CHECK-NEXT: traced 1, compiled 1 ['bt', 'out', 'seq', 'blk']

# CHECK-LABEL: another kernel
say('another kernel')
other = KernelCache(Target('sm_90'), cache_dir=False, infer_params=True)
other.get('k', {'width': 8}, trace)
launch = other.get('k', {'width': 9},
                   lambda v: kernel_text(v['width'], other_kernel=True))
# Another kernel under the same name does not learn with the first one's
# trace (its symbol differs): it learns its own template with a probe
# (its own trace function at width 10), the log saying why.
# CHECK-NEXT: [flyhoist] compiled k template for width=9 in group 2: learned with a probe at width=10 (traced, not compiled), not with group 1 (width=8) (not inferred: traces do not align: attribute 'sym_name' differs: "other" vs "gather" at k.mlir:3:5 (k.mlir:3:5 in the other trace)): hoists 'width'; computed in the kernel: p0 = 4*width; probed at width=11 (traced, not compiled)
say(f'traced {other.traced}, compiled {other.compiled}',
    launch.arguments(RUNTIME))
# CHECK-NEXT: traced 4, compiled 2 ['bt', 'out', 'seq', 'blk', 9]
say('recompiles recorded:', len(cache.recompiles), len(other.recompiles))
# CHECK-NEXT: recompiles recorded: 4 1

# CHECK-LABEL: a first value of its own structure
# Width 1 traces differently (the DSL folded x * 1, say): the next width
# does not learn with it, and learns its template with a probe (width 9).
say('a first value of its own structure')
folded = KernelCache(Target('sm_90'), cache_dir=False, infer_params=True)
fold = lambda v: kernel_text(v['width'], extra_op=v['width'] == 1)  # noqa
for w in (1, 5, 9, 13):
    folded.get('f', {'width': w}, fold)
# CHECK-NEXT: [flyhoist] compiled f template for width=5 in group 2: learned with a probe at width=9 (traced, not compiled), not with group 1 (width=1) (not inferred: traces do not align: 'gpu.return' vs 'arith.addi' at f.mlir:14:7 (f.mlir:14:12 in the other trace); width=1 folds away in the trace (x * 1, x + 0): its trace has its own structure and is compiled for that value alone): hoists 'width'; computed in the kernel: p0 = 4*width; probed at width=13 (traced, not compiled)
say(f'traced {folded.traced}, compiled {folded.compiled}',
    folded.get('f', {'width': 13}, fold).arguments(RUNTIME))
# CHECK-NEXT: traced 6, compiled 2 ['bt', 'out', 'seq', 'blk', 13]
for c in (cache, single, other, folded):
    c.close()

# CHECK-LABEL: the functions
# What the cache calls, for a frontend with its own cache.
say('the functions')
from flyhoist import Context, TraceMismatch, infer_spec_params, \
    match_spec_params  # noqa: E402
with Context() as context:
    a = context.parse(kernel_text(128), 'a.mlir')
    b = context.parse(kernel_text(64), 'b.mlir')
    c = context.parse(kernel_text(32), 'c.mlir')
    d = context.parse(kernel_text(16, extra_op=True), 'd.mlir')
    params = infer_spec_params(a, [b], [('width', [128, 64])])
    say([(p['name'], p['type'], p['values'], p['location']) for p in params])
    # CHECK-NEXT: [('width', 'index', [128, 64], 'a.mlir:8:14'), ('p0', 'index', [512, 256], 'a.mlir:11:12')]
    say(match_spec_params(a, c))
    # CHECK-NEXT: {'width': 32, 'p0': 128}
    try:
        match_spec_params(a, d)
    except TraceMismatch as error:
        say('mismatch:', error.summary())
    # CHECK-NEXT: mismatch: trace does not match the template: 'gpu.return' vs 'arith.addi' at a.mlir:14:7 (d.mlir:14:12 in the other trace)
    # From three traces the library says which parameter the kernel
    # computes, and from what (`derived`; null for one it takes).
    e = context.parse(kernel_text(128), 'e.mlir')
    params = infer_spec_params(e, [b, c], [('width', [128, 64, 32])])
    say([(p['name'], p['derived']) for p in params])
    # CHECK-NEXT: [('width', None), ('p0', {'offset': 0, 'root': 'width', 'scale': 4})]
    say(sorted(p['name'] for p in e.spec_params()))
    # CHECK-NEXT: ['width', 'width']
    for m in (a, b, c, d, e):
        m.close()
