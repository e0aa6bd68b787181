# Launch.arguments(lowered=True) against the code objects: the hoisted
# values land at the manifest's `kernel_parameter` slots, which are where the
# AMDGPU kernel descriptor (`.args`) and the PTX entry (`.param`) put them,
# and the list has as many entries as the code object has explicit kernel
# arguments, for both pipelines and both memref conventions.
# RUN: python3 %s 2>&1 | FileCheck %s

import re

from flyhoist import KernelCache, Launch, PreconditionError, Target
from flyhoist.cache import Variant

# Memrefs of rank 2 and 1 (7 and 5 parameters with descriptors), an index,
# a buffer resource struct, then the hoisted i32 width and index rows.
DYNAMIC = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?x?xf32>, %b: memref<?xi32>, %n: index,
                %rsrc: !llvm.struct<(ptr<8>, i32)>) kernel {
      %w = spec.param "w" = WIDTH : i32
      %r = spec.param "rows" = 7 : index
      %i = arith.index_cast %w : i32 to index
      %j = arith.muli %i, %r : index
      %v = memref.load %b[%j] : memref<?xi32>
      memref.store %v, %b[%n] : memref<?xi32>
      gpu.return
    }
  }
}
'''

# Static memrefs (one bare pointer each), so both conventions lower it.
STATIC = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4x8xf32>, %s: memref<f32>, %flag: i1,
                %b: memref<16xi32>) kernel {
      %w = spec.param "w" = WIDTH : i32
      %i = arith.index_cast %w : i32 to index
      %x = memref.load %b[%i] : memref<16xi32>
      memref.store %x, %b[%i] : memref<16xi32>
      gpu.return
    }
  }
}
'''


def amdgpu_parameters(isa):
    """(size, kind) of each explicit kernel argument in the HSA metadata."""
    block = isa[isa.index('.args:'):]
    entries = re.split(r'\n\s*- ', block)[1:]
    params = []
    for entry in entries:
        kind = re.search(r'\.value_kind:\s*(\w+)', entry)
        size = re.search(r'\.size:\s*(\d+)', entry)
        if not kind or kind[1].startswith('hidden_'):
            break
        params.append((int(size[1]), kind[1]))
    return params


def ptx_parameters(ptx):
    """(type, name) of each .param of the .entry."""
    entry = ptx[ptx.index('.entry'):]
    entry = entry[:entry.index(')')]
    return re.findall(r'\.param\s+(\.\w+|\.align \d+ \.b8)[^\n]*?(\w+_param_\d+)',
                      entry)


def check(name, text, target, parameters, width):
    cache = KernelCache(target, cache_dir=False)
    launch = cache.get(name, {'w': width, 'rows': 7} if 'rows' in text else
                       {'w': width}, lambda v: text.replace('WIDTH',
                                                            str(v['w'])))
    (obj,) = launch.objects.values()
    obj = obj.decode()
    full = launch.arguments(parameters, lowered=True)
    params = (amdgpu_parameters(obj) if target.kind == 'amdgpu' else
              ptx_parameters(obj))
    slot = full.index(width)
    print(f'{name} {target.chip} {launch.memref_convention}: '
          f'{len(full)} arguments, code object {len(params)}; '
          f'w at {slot}: {params[slot]}')
    return launch


WIDTH = 12345
BARE = 'use-bare-ptr-memref-call-conv=true'
# 14 code-object parameters before the hoisted ones: 7 + 5 + 1 + 1.
dynamic = ['a'] * 7 + ['b'] * 5 + ['n', 'rsrc']
for target in (Target('gfx942', 'isa'), Target('sm_90')):
    launch = check('dynamic', DYNAMIC, target, dynamic, WIDTH)
    print('  rows at', launch.arguments(dynamic, lowered=True).index(7))
# CHECK: dynamic gfx942 memref_descriptors: 16 arguments, code object 16; w at 15: (4, 'by_value')
# CHECK-NEXT: rows at 14
# CHECK-NEXT: dynamic sm_90 memref_descriptors: 16 arguments, code object 16; w at 15: ('.u32', 'k_param_15')
# CHECK-NEXT: rows at 14

# 7 + 3 + 1 + 5 parameters with descriptors, 4 with bare pointers.
static = ['a'] * 7 + ['s'] * 3 + ['flag'] + ['b'] * 5
for target in (Target('gfx942', 'isa'), Target('sm_90')):
    check('static', STATIC, target, static, WIDTH)
for target in (Target('gfx942', 'isa', BARE), Target('sm_90', options=BARE)):
    check('static', STATIC, target, ['a', 's', 'flag', 'b'], WIDTH)
# CHECK-NEXT: static gfx942 memref_descriptors: 17 arguments, code object 17; w at 16: (4, 'by_value')
# CHECK-NEXT: static sm_90 memref_descriptors: 17 arguments, code object 17; w at 16: ('.u32', 'k_param_16')
# CHECK-NEXT: static gfx942 bare_pointers: 5 arguments, code object 5; w at 4: (4, 'by_value')
# CHECK-NEXT: static sm_90 bare_pointers: 5 arguments, code object 5; w at 4: ('.u32', 'k_param_4')

# The MLIR-level list is not the code object's, and says so by its length.
cache = KernelCache(Target('sm_90'), cache_dir=False)
launch = cache.get('dynamic', {'w': 3, 'rows': 7},
                   lambda v: DYNAMIC.replace('WIDTH', str(v['w'])))
print('mlir-level:', launch.arguments(['a', 'b', 'n', 'rsrc']))
# CHECK-NEXT: mlir-level: ['a', 'b', 'n', 'rsrc', 7, 3]

# A lowered list of the wrong length is an error, not a shifted launch.
try:
    launch.arguments(['a', 'b', 'n', 'rsrc'], lowered=True)
except ValueError as error:
    print('short:', error)
# CHECK-NEXT: short: @kernels::@k: the code object takes 14 parameters before its hoisted ones (memref descriptors), got 4

# A kernel whose memrefs bare pointers cannot lower has no such slot.
bare = Launch(KernelCache(Target('sm_90', options=BARE), cache_dir=False),
              launch.variant, launch.values)
try:
    bare.arguments(dynamic, lowered=True)
except ValueError as error:
    print('bare:', error)
# CHECK-NEXT: bare: @kernels::@k: its signature has a memref that bare pointers cannot lower

# An `equals` contract names MLIR arguments: lowered mode checks it against
# args=, and refuses to guess without them.
manifest = {'version': 3, 'kernels': [{'symbol': '@m::@k', 'kept': [], 'hoisted': [
    {'name': 'stride', 'argument': None, 'source': 'equals', 'type': 'index',
     'kernel_parameter': None, 'preconditions': [
         {'kind': 'equals', 'argument': 1, 'part': 'value', 'index': None,
          'text': 'value == argument 1'}]},
    {'name': 'w', 'argument': 2, 'source': 'argument', 'type': 'i32',
     'kernel_parameter': {'memref_descriptors': 6, 'bare_pointers': 2},
     'preconditions': []}]}]}
contract = Launch(None, Variant('k', {'stride': 64, 'w': 5}, manifest, set()),
                  {'stride': 64, 'w': 5})
lowered = ['p'] * 5 + [64]
print('with args:', contract.arguments(lowered, lowered=True,
                                       args=['p', 64]))
for args in (None, ['p', 80]):
    try:
        contract.arguments(lowered, lowered=True, args=args)
    except PreconditionError as error:
        print('args', args, ':', error)
# CHECK-NEXT: with args: ['p', 'p', 'p', 'p', 'p', 64, 5]
# CHECK-NEXT: args None : @m::@k: 'stride' must satisfy value == argument 1, which names the kernel's own arguments: pass them as args= (one per MLIR argument) to arguments(lowered=True)
# CHECK-NEXT: args ['p', 80] : @m::@k: 'stride' = 64 breaks value == argument 1; pass args= to KernelCache.get to get a kernel compiled for it
