"""A kernel as an autotuned DSL traces it, with plain constants only: a tile
(a loop bound: kept), a width (a row stride, and 4 * width a byte stride:
hoisted), and whatever else the frontend passes. Options change the trace
the way real frontends do: `checks` adds a bounds check only for wide
rows (a key that changes the trace only sometimes), `unroll` unrolls the
tile loop below 4 (the structure changes with the value), `products` makes
the width enter as Python-folded products (k_tile * stride // 4, w + 1,
w * k / 4).

check(cache, kernel, launch, text) compares what a launch passes with the
constants of its own trace: a launch on a template must be the template
with its parameters set to the launch's values, which materialized and
canonicalized prints what the trace canonicalized prints; a launch on a
per-value object passes no value."""

import re

CONSTANT = re.compile(r'^\s*%\S+ = arith\.constant ')
PARAM = re.compile(r'(spec\.param\s+"([^"]+)"\s*=\s*)(-?\d+)')
PIPELINE = 'builtin.module(materialize-specialization,canonicalize,cse)'
K_TILE = 16


def kernel_text(values):
    width, tile = values['width'], values.get('tile', 64)
    body = [f'%w = arith.constant {width} : index',
            f'%s = arith.constant {4 * width} : index',
            f'%t = arith.constant {tile} : index',
            '%c0 = arith.constant 0 : index',
            '%c1 = arith.constant 1 : index',
            '%row = arith.muli %seq, %w : index',
            '%b = arith.muli %blk, %s : index']
    if values.get('products'):
        stride = values.get('stride', 8)
        body += [f'%k = arith.constant {K_TILE * width * stride // 4} : '
                 f'index',
                 f'%n = arith.constant {width + 1} : index',
                 f'%q = arith.constant {width * K_TILE // 4} : index',
                 '%r1 = arith.muli %blk, %k : index',
                 '%r2 = arith.muli %seq, %n : index',
                 '%r3 = arith.addi %r1, %r2 : index',
                 '%r4 = arith.muli %r3, %q : index',
                 '%x = memref.load %bt[%r4] : memref<?xi32>',
                 'memref.store %x, %out[%r4] : memref<?xi32>']
    if values.get('checks') and width > 256:
        body += ['%lim = arith.constant 1024 : index',
                 '%ok = arith.cmpi ult, %seq, %lim : index']
    if values.get('unroll') and tile < 4:
        body += [f'%u{i} = arith.addi %row, %c1 : index' for i in range(tile)]
    else:
        body += ['scf.for %i = %c0 to %t step %c1 {',
                 '  %e = arith.addi %row, %i : index',
                 '  %v = memref.load %bt[%e] : memref<?xi32>',
                 '  %o = arith.addi %b, %i : index',
                 '  memref.store %v, %out[%o] : memref<?xi32>',
                 '}']
    if values.get('locs'):
        # Where the frontend's Python built each op, as a tracer that
        # records its call sites prints it (docs/INTEGRATION.md).
        # (An op with a region takes its location after the region.)
        body = [line if line.endswith('{') else
                f'{line} loc("tuned_kernel.py":{100 + i}:9)'
                for i, line in enumerate(body)]
    lines = '\n'.join('      ' + line for line in body)
    return f'''module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @tuned(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index,
                    %blk: index) kernel {{
{lines}
      gpu.return
    }}
  }}
}}
'''


def canonical(context, text):
    with context.parse(text, 'check.mlir') as module:
        module.run_pipeline(PIPELINE)
        lines = module.text().splitlines()
    return ([line for line in lines if not CONSTANT.search(line)],
            sorted(line.strip() for line in lines if CONSTANT.search(line)))


def template_of(cache, kernel, variant):
    """The unhoisted template whose compile `variant` is, or None."""
    for group in cache._inference.kernels[kernel].groups:
        if group.variant is variant and group.template is not None:
            return group.template.text()
    return None


def check(cache, kernel, launch, text):
    """None when the launch passes what its own trace bakes in, else why
    not."""
    runtime = ['bt', 'out', 'seq', 'blk']
    passed = launch.arguments(runtime)[len(runtime):]
    if launch.specialized:
        return None if not passed else f'a per-value object takes {passed}'
    template = template_of(cache, kernel, launch.variant)
    if template is None:
        return 'a launch on no known template'
    filled = PARAM.sub(lambda m: m[1] + str(launch.values.get(m[2], m[3])),
                       template)
    if canonical(cache.context, filled) != canonical(cache.context, text):
        return f'the template at {launch.values} is not the trace'
    return None
