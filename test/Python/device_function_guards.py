# Every kept entry of the manifest guards a variant, the device functions'
# too: kernel @scale hoists `w` (an address) and calls @fill, which keeps
# its own `w` (a loop bound). The object compiled for w=4 bakes 4 into
# @fill, so w=8 must compile again (the old package served the w=4 object:
# it read kept entries of kernels only and took `w` for hoisted). A name
# hoisted in one function and kept in another is not hoisted. Through
# KernelCache, in-process and on the inference route, on gfx942.
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %s %t 2>&1 | FileCheck %s

import sys

from flyhoist import KernelCache
from flyhoist.cache import Variant

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<?xf32>, %row: index) kernel {
      %w = spec.param "w" = W : index
      %base = arith.muli %row, %w : index
      %v = memref.load %m[%base] : memref<?xf32>
      func.call @fill(%m, %v) : (memref<?xf32>, f32) -> ()
      gpu.return
    }
    func.func @fill(%m: memref<?xf32>, %v: f32) {
      %w = spec.param "w" = W : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %w step %c1 {
        memref.store %v, %m[%i] : memref<?xf32>
      }
      return
    }
  }
}
'''


def trace(values):
    return KERNEL.replace('W', str(values['w']))


# CHECK-LABEL: marked
print('marked')
log = []
cache = KernelCache('gfx942', cache_dir=False, remote=False, log=log.append)
four = cache.get('scale', {'w': 4}, trace)
variant = four.variant
print('hoisted:', sorted(variant.hoisted), 'kept:', sorted(variant.kept),
      'in', variant.kept['w'][0])
print('guards:', [g.text for g in variant.guards if g.name == 'w'
                  and 'baked' in g.text])
eight = cache.get('scale', {'w': 8}, trace)
print('w=8: compiled', cache.compiled, 'another object:',
      eight.objects != four.objects)
again = cache.get('scale', {'w': 4}, trace)
print('w=4 again: compiled', cache.compiled, 'same object:',
      again.objects == four.objects)
print(log[0] if log else 'no recompile logged')
# CHECK-NEXT: hoisted: [] kept: ['w'] in @kernels::@fill
# CHECK-NEXT: guards: ['value == 4 (baked in, kept in @kernels::@fill: loop bound or step at scale.mlir:14:7)']
# CHECK-NEXT: w=8: compiled 2 another object: True
# CHECK-NEXT: w=4 again: compiled 2 same object: True
# CHECK-NEXT: compiled @kernels::@fill again: 'w' 4 -> 8 (kept specialized: loop bound or step at scale.mlir:14:7)

# CHECK-LABEL: a kept entry is a guard whatever the level-1 key says
# A variant told `w` is hoisted (what an earlier compile learned) still
# refuses another w: its own manifest keeps it.
print('a kept entry is a guard whatever the level-1 key says')
guarded = Variant('scale', {'w': 4}, variant.manifest, known_hoisted=set())
print('w=8:', guarded.failure({'w': 8}, None).text.split(',')[0],
      '| w=4:', guarded.failure({'w': 4}, None))
# CHECK-NEXT: w=8: value == 4 (baked in | w=4: None

# CHECK-LABEL: inference
# The same kernel traced with plain constants: inference names them, and
# the device function's loop bound keeps `w` there too.
print('inference')
PLAIN = KERNEL.replace('spec.param "w" = W : index', 'arith.constant W : index')
log = []
cache = KernelCache('gfx942', cache_dir=False, remote=False, log=log.append,
                    infer_params=True)
objects = {}
for w in (4, 8, 16, 8):
    objects[w] = cache.get('plain', {'w': w},
                           lambda v: PLAIN.replace('W', str(v['w']))).objects
print('compiled:', cache.compiled, 'objects:', len({bytes(o['kernels'])
                                                    for o in objects.values()}))
# CHECK-NEXT: compiled: 3 objects: 3
sys.exit(0)
