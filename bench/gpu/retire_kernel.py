"""retire_demo.py's kernel: its text for given values, the expected rows and
how one is made."""

import json
import os
import common  # bench/gpu/common.py: bench/common.py

common.import_flyhoist()
from flyhoist.params import spec_param  # noqa: E402


ENTRY = 'spin'


THREADS = 256


ROW_STRIDE = 256


LCG_A, LCG_B = 1664525, 1013904223


def kernel_text(values):
    """The traced kernel: out[row * row_stride + tid] = lcg^iters(tid)."""
    return f'''module attributes {{gpu.container_module}} {{
  gpu.module @spin_kernels {{
    gpu.func @{ENTRY}(%out: memref<?xi32>, %row: index) kernel {{
      {spec_param('iters', 'iters', values['iters'], 'index')}
      {spec_param('stride', 'row_stride', values['row_stride'], 'index')}
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = arith.constant {LCG_A} : i32
      %b = arith.constant {LCG_B} : i32
      %seed = arith.index_cast %tid : index to i32
      %x = scf.for %i = %c0 to %iters step %c1 iter_args(%v = %seed) -> (i32) {{
        %m = arith.muli %v, %a : i32
        %n = arith.addi %m, %b : i32
        scf.yield %n : i32
      }}
      %base = arith.muli %row, %stride : index
      %at = arith.addi %base, %tid : index
      memref.store %x, %out[%at] : memref<?xi32>
      gpu.return
    }}
  }}
}}
'''


def lcg_power(iters):
    """(A, B) with lcg^iters(x) = A x + B mod 2^32."""
    result, step = (1, 0), (LCG_A, LCG_B)
    while iters:
        if iters & 1:
            result = ((step[0] * result[0]) % 2**32,
                      (step[0] * result[1] + step[1]) % 2**32)
        step = ((step[0] * step[0]) % 2**32,
                (step[0] * step[1] + step[1]) % 2**32)
        iters >>= 1
    return result


def expected_row(iters):
    a, b = lcg_power(iters)
    row = []
    for tid in range(THREADS):
        x = (a * tid + b) % 2**32
        row.append(x - 2**32 if x >= 2**31 else x)
    return row


def make(args):
    from flyhoist import KernelCache, Target
    os.makedirs(args.out, exist_ok=True)
    cache = KernelCache(Target('sm_90'), cache_dir=False)
    variants = []
    for i in range(args.variants):
        iters = args.iters + i * 1024
        launch = cache.get('spin', {'iters': iters, 'row_stride': ROW_STRIDE},
                           kernel_text)
        (ptx,) = launch.objects.values()
        path = f'spin_{i}.ptx'
        with open(os.path.join(args.out, path), 'wb') as f:
            f.write(ptx)
        # The kernel's own arguments, then the hoisted stride where the
        # manifest put it.
        order = launch.arguments(['out', 'row'])
        variants.append({'key': launch.fingerprints['spin_kernels'],
                         'iters': iters, 'ptx': path, 'arguments': order})
    spec = {'entry': ENTRY, 'threads': THREADS, 'row_stride': ROW_STRIDE,
            'variants': variants, 'traced': cache.traced,
            'compiled': cache.compiled, 'recompiles': cache.recompiles}
    with open(os.path.join(args.out, 'spin.json'), 'w') as f:
        json.dump(spec, f, indent=1)
    print(f'{len(variants)} modules (traced {cache.traced}, compiled '
          f'{cache.compiled}), arguments {variants[0]["arguments"]}')
    for line in cache.recompiles:
        print(' ', line)
