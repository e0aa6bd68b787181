# The code-object key (flyhoist/keys.py) holds everything that can change
# an object's bytes: the root module's data layout (same gpu.modules, two
# layouts: two keys, two compiles), the library's build identity, the
# pipeline; not the locations, nor host code (a launcher passing the value
# as a constant keeps one key). A gpu.module that carries a target other
# than the requested chip is a CompileError naming both, not another chip's
# object under this chip's key.
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %s %t 2>&1 | FileCheck %s


from flyhoist import CompileError, Context, KernelCache, Target
from flyhoist import keys

KERNEL = '''module attributes {gpu.container_module ATTRS} {
  gpu.module @kernels TARGETS {
    gpu.func @scale(%m: memref<?xf32>, %row: index) kernel {
      %w = spec.param "row_stride" = 8 : index
      %base = arith.muli %row, %w : index
      %v = memref.load %m[%base] : memref<?xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %m[%base] : memref<?xf32>
      gpu.return
    }
  }
  HOST
}
'''
HOST = '''func.func @host(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %row = arith.constant ROW : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %row : index)
    return
  }'''
LAYOUT = ', dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>'


def text(attrs='', targets='', host=''):
    return KERNEL.replace('ATTRS', attrs).replace('TARGETS', targets) \
        .replace('HOST', host)


def key_of(context, source, target, name='k.mlir'):
    with context.parse(source, name) as module:
        return keys.object_key(module, target, module.fingerprints())[1]


context = Context()
gfx942 = Target('gfx942')
P = {'row_stride': 8}

# CHECK-LABEL: data layout
print('data layout')
plain, layout = text(), text(attrs=LAYOUT)
with context.parse(plain) as a, context.parse(layout) as b:
    print('gpu.module fingerprints equal:', a.fingerprints() == b.fingerprints())
print('keys differ:', key_of(context, plain, gfx942) !=
      key_of(context, layout, gfx942))
cache = KernelCache(gfx942, cache_dir=False, remote=False)
objects = [cache.get('k', P, lambda v: plain).objects,
           cache.get('k2', P, lambda v: layout).objects]
print('compiled:', cache.compiled, 'objects differ:', objects[0] != objects[1])
# CHECK-NEXT: gpu.module fingerprints equal: True
# CHECK-NEXT: keys differ: True
# CHECK-NEXT: compiled: 2 objects differ: True

# CHECK-LABEL: what does not change the objects
print('what does not change the objects')
base = key_of(context, plain, gfx942)
print('other locations:', key_of(context, plain, gfx942, 'elsewhere.mlir')
      == base)
print('host code, two row values:',
      key_of(context, text(host=HOST.replace('ROW', '3')), gfx942) ==
      key_of(context, text(host=HOST.replace('ROW', '4')), gfx942) == base)
print('another chip:', key_of(context, plain, Target('gfx90a')) != base)
print('other pipeline options:',
      key_of(context, plain, Target('gfx942', options='opt-level=0')) != base)
print('symbols:', sorted(key_of(context, plain, gfx942).symbols))
# CHECK-NEXT: other locations: True
# CHECK-NEXT: host code, two row values: True
# CHECK-NEXT: another chip: True
# CHECK-NEXT: other pipeline options: True
# CHECK-NEXT: symbols: ['kernels']

# CHECK-LABEL: build identity
print('build identity')
lib = context.lib
print('identity:', lib.build_identity.split(' (')[0],
      lib.build_identity.split('(')[1].split(':')[0])
real = lib.build_identity
try:
    lib.build_identity = real + ' (another)'
    other = key_of(context, plain, gfx942)
finally:
    lib.build_identity = real
print('another build, another key:', other != base)
# CHECK-NEXT: identity: flyhoist {{[0-9.]+}} {{git|src-sha256|[^ ]+}}
# CHECK-NEXT: another build, another key: True

# CHECK-LABEL: a gpu.module with another chip's target
print("a gpu.module with another chip's target")
targeted = text(targets='[#rocdl.target<chip = "gfx90a">]')
cache = KernelCache(gfx942, cache_dir=False, remote=False)
try:
    cache.get('t', P, lambda v: targeted)
    print('no error: compiled', cache.compiled)
except CompileError as error:
    print(str(error).splitlines()[0])
print('compiled:', cache.compiled)
# CHECK-NEXT: gpu.module @kernels carries the target #rocdl.target<chip = "gfx90a">, but code objects for gfx942 were asked for (Target('gfx942', 'bin')): {{.*}}
# CHECK-NEXT: compiled: 0
for source, target in [(targeted, 'gfx90a'),
                       (text(targets='[#nvvm.target<chip = "sm_90">]'),
                        'gfx942'),
                       (text(targets='[#rocdl.target]'), 'gfx942')]:
    cache = KernelCache(target, cache_dir=False, remote=False)
    try:
        launch = cache.get('t', P, lambda v, s=source: s)
        print(f'under {target}: compiled {cache.compiled}, ELF',
              launch.objects['kernels'][:4] == b'\x7fELF')
    except CompileError as error:
        print(f'under {target}:', str(error).split(',')[0])
# CHECK-NEXT: under gfx90a: compiled 1, ELF True
# CHECK-NEXT: under gfx942: gpu.module @kernels carries the target #nvvm.target<chip = "sm_90">
# CHECK-NEXT: under gfx942: gpu.module @kernels carries the target #rocdl.target
context.close()
