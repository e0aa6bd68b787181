# KernelCache(infer_params=True) falls back as the plain route does
# (hoisted_lowering.py): a hoisted form that does not lower is compiled fully
# specialized for the values at hand, with one warning and a recompile-log
# line, on each of inference's compiles: the template (plain traces), the
# first compile and the later ones (traces that mark the value themselves).
# Never a CompileError into the JIT, never a hoisted launch.
# vector.extract's position declared an address operand
# (address-operands=vector.extract[1]): hoisted, a dynamic position into a
# 2-D vector has no LLVM lowering; the constant one does.
# RUN: python3 %s 2>%t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=STDERR < %t.err

from flyhoist import KernelCache

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @pick(%m: memref<?xvector<4xf32>>, %v: vector<4x4xf32>) kernel {
      %r = ROW
      %c0 = arith.constant 0 : index
      %x = vector.extract %v[%r] : vector<4xf32> from vector<4x4xf32>
      memref.store %x, %m[%c0] : memref<?xvector<4xf32>>
      gpu.return
    }
  }
}
'''


def plain(values):
    """What a frontend that marks nothing emits."""
    return KERNEL.replace('ROW', f'arith.constant {values["row"]} : index')


def marked(values):
    """A frontend that marks the value itself, under infer_params=True."""
    return KERNEL.replace('ROW', f'spec.param "row" = {values["row"]} : '
                                 f'index')


def run(trace):
    log = []
    cache = KernelCache('sm_90', options='address-operands=vector.extract[1]',
                        cache_dir=False, log=log.append, infer_params=True)
    # Row 2 twice: the second is a hit.
    launches = [cache.get('pick', {'row': row}, trace)
                for row in (1, 2, 3, 2)]
    print('specialized:', [launch.specialized for launch in launches])
    print('arguments:', {tuple(launch.arguments(['m', 'v']))
                         for launch in launches})
    print('objects:', len({launch.objects['kernels'] for launch in launches}),
          'PTX:', all(launch.objects['kernels'].startswith(b'//')
                      for launch in launches))
    print(f'traced {cache.traced}, compiled {cache.compiled}, after a failed '
          f'lowering {cache.specialized_after_failure}, warnings '
          f'{len(cache.warnings)}')
    for message in log:
        print(message)
    return cache


# The template: the first value compiles as traced (a constant position);
# the second infers `row`, hoists it, and the template does not lower.
# CHECK-LABEL: template
print('template')
cache = run(plain)
# Every launch is on an object for its own values (the first value's own
# compile, then specialized ones).
# CHECK-NEXT: specialized: [True, True, True, True]
# CHECK-NEXT: arguments: {('m', 'v')}
# CHECK-NEXT: objects: 3 PTX: True
# CHECK-NEXT: traced 3, compiled 3, after a failed lowering 2, warnings 1
# CHECK-NEXT: warning: compiled @kernels::@pick fully specialized ('row' = 2): its hoisted form does not lower: pick.mlir:6:12: error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast; every new value of its hoisted parameters compiles again
# CHECK-NEXT: compiled pick again for row=2 in group 1: kept specialized: its hoisted form does not lower
# CHECK-NEXT: compiled pick again for row=3 in group 2 (row=3): kept specialized: its hoisted form does not lower
# CHECK-NOT: compiled
# A value seen before is a hit on its own specialized compile.
print('hits:', cache.hits, 'row 2 again:',
      cache.get('pick', {'row': 2}, plain).specialized)
# CHECK-NEXT: hits: 1 row 2 again: True

# The first compile and the later ones: the trace's own spec.param is
# hoisted, and that module does not lower either.
# CHECK-LABEL: first compile
print('first compile')
run(marked)
# CHECK-NEXT: specialized: [True, True, True, True]
# CHECK-NEXT: arguments: {('m', 'v')}
# CHECK-NEXT: objects: 3 PTX: True
# CHECK-NEXT: traced 3, compiled 3, after a failed lowering 3, warnings 1
# CHECK-NEXT: warning: compiled @kernels::@pick fully specialized ('row' = 1): its hoisted form does not lower: pick.mlir:4:12: error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast; every new value of its hoisted parameters compiles again
# CHECK-NEXT: compiled pick again for row=2 in group 2 (row=2): kept specialized: its hoisted form does not lower
# CHECK-NEXT: compiled pick again for row=3 in group 3 (row=3): kept specialized: its hoisted form does not lower
# CHECK-NOT: compiled

# One warning per hoisted module, on stderr too.
# STDERR: [flyhoist] warning: compiled @kernels::@pick fully specialized ('row' = 2)
# STDERR-NEXT: [flyhoist] warning: compiled @kernels::@pick fully specialized ('row' = 1)
# STDERR-NOT: warning
