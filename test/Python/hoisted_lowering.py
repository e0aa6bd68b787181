# A kernel whose hoisted form does not lower is compiled fully specialized
# for the values at hand, with the reason in the recompile log and one
# warning; hoisting never turns a kernel that compiles into one that fails.
# Here the frontend declares vector.extract's position an address operand
# (address-operands=vector.extract[1]): the pass hoists it, and a dynamic
# position into a 2-D vector has no LLVM lowering, while the constant does.
# RUN: python3 %s 2>%t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=STDERR < %t.err

from flyhoist import KernelCache

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @pick(%m: memref<?xvector<4xf32>>, %v: vector<4x4xf32>) kernel {
      %r = spec.param "row" = ROW : index
      %c0 = arith.constant 0 : index
      %x = vector.extract %v[%r] : vector<4xf32> from vector<4x4xf32>
      memref.store %x, %m[%c0] : memref<?xvector<4xf32>>
      gpu.return
    }
  }
}
'''


def trace(values):
    return KERNEL.replace('ROW', str(values['row']))


compiles = []
real_compile = KernelCache._compile  # a lowering, in the compile worker


def counting_compile(self, module):
    try:
        result = real_compile(self, module)
        compiles.append('ok')
        return result
    except Exception:
        compiles.append('failed')
        raise


KernelCache._compile = counting_compile

log = []
cache = KernelCache('sm_90', options='address-operands=vector.extract[1]',
                    cache_dir=False, log=log.append)
launches = [cache.get('pick', {'row': row}, trace) for row in (1, 2, 1, 3)]
# CHECK-LABEL: specialized
print('specialized')
print('specialized:', [launch.specialized for launch in launches])
print('arguments:', launches[0].arguments(['m', 'v']))
print('objects:', len({launch.objects['kernels'] for launch in launches}),
      'PTX:', all(l.objects['kernels'].startswith(b'//') for l in launches))
print(f'traced {cache.traced}, compiled {cache.compiled}, after a failed '
      f'lowering {cache.specialized_after_failure}')
# The hoisted module failed once; its fingerprint is remembered, so the
# next values go straight to the specialized compile.
print('compiles:', compiles)
# CHECK-NEXT: specialized: [True, True, True, True]
# CHECK-NEXT: arguments: ['m', 'v']
# CHECK-NEXT: objects: 3 PTX: True
# CHECK-NEXT: traced 3, compiled 3, after a failed lowering 3
# CHECK-NEXT: compiles: ['failed', 'ok', 'ok', 'ok']

# CHECK-LABEL: log
print('log')
for message in log:
    print(message)
# CHECK-NEXT: warning: compiled @kernels::@pick fully specialized ('row' = 1): its hoisted form does not lower: pick.mlir:4:12: error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast; every new value of its hoisted parameters compiles again
# CHECK-NEXT: compiled pick again: 'row' 1 -> 2 (kept specialized: its hoisted form does not lower); compiled fully specialized
# CHECK-NEXT: compiled pick again: 'row' 2 -> 3 (kept specialized: its hoisted form does not lower); compiled fully specialized
print('recompiles:', len(cache.recompiles))
# CHECK-NEXT: recompiles: 3
# STDERR: [flyhoist] warning: compiled @kernels::@pick fully specialized ('row' = 1): its hoisted form does not lower
# STDERR-NOT: warning

# The same kernel without the option keeps the position: one compile per
# value from the start, and nothing failed.
# CHECK-LABEL: without the option
print('without the option')
compiles.clear()
plain = KernelCache('sm_90', cache_dir=False)
plain.get('pick', {'row': 1}, trace)
print(f'compiled {plain.compiled}, compiles {compiles}, after a failed '
      f'lowering {plain.specialized_after_failure}')
# CHECK-NEXT: compiled 1, compiles ['ok'], after a failed lowering 0
