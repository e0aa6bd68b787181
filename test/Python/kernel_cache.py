# KernelCache: the two-level key (a new width is a dictionary lookup: no
# trace, no pass, no compile), kept values compile again, the precondition
# forms, runtime-argument contracts (never a launch that breaks one), and
# bounded loaded modules retired on a fake GPU. kernel_cache_manifest.py has
# the parts that read the kept reasons and preconditions from the manifest.
# RUN: python3 %s 2>&1 | FileCheck %s

import os
import sys

import flyhoist
from flyhoist import KernelCache, PreconditionError, Target
from flyhoist import ManifestError
from flyhoist.cache import Launch, Variant
from flyhoist.contract import compile_precondition

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'Inputs'))
from fake_gpu import FakeGPU, NaiveRetirer  # noqa: E402
from gather_trace import no_trace, trace  # noqa: E402


messages = []
cache = KernelCache(Target('sm_90'), cache_dir=False, log=messages.append)

# CHECK-LABEL: widths
print('widths')
launches = {w: cache.get('gather', {'max_blocks_per_seq': w, 'pages': 4},
                         trace)
            for w in range(1, 41)}
print(f'traced {cache.traced}, compiled {cache.compiled}, hits {cache.hits}')
print('one object:', len({l.objects['kernels'] for l in launches.values()}))
print('arguments:', launches[40].arguments(['bt', 'out', 'seq']))
print('every width passed:',
      all(l.arguments(['bt', 'out', 'seq'])[3] == w
          for w, l in launches.items()))
# CHECK-NEXT: traced 1, compiled 1, hits 39
# CHECK-NEXT: one object: 1
# CHECK-NEXT: arguments: ['bt', 'out', 'seq', 40]
# CHECK-NEXT: every width passed: True
# A new width after the first compile never traces.
launch = cache.get('gather', {'max_blocks_per_seq': 1 << 40, 'pages': 4},
                   no_trace)
print('2^40:', launch.arguments([0, 0, 0])[3] == 1 << 40, cache.traced)
# CHECK-NEXT: 2^40: True 1

# CHECK-LABEL: kept values
print('kept values')
cache.get('gather', {'max_blocks_per_seq': 3, 'pages': 8}, trace)
cache.get('gather', {'max_blocks_per_seq': 5, 'pages': 8}, no_trace)
cache.get('gather', {'max_blocks_per_seq': 6, 'pages': 4}, no_trace)
print(f'traced {cache.traced}, compiled {cache.compiled}')
# CHECK-NEXT: traced 2, compiled 2
# Another kernel identity is another kernel.
cache.get('gather-2', {'max_blocks_per_seq': 3, 'pages': 8}, trace)
print(f'other kernel: traced {cache.traced}, compiled {cache.compiled}')
# CHECK-NEXT: other kernel: traced 3, compiled 2
# Other parameter names are another specialization, never a hit.
cache.get('gather', {'max_blocks_per_seq': 3, 'pages': 8, 'extra': 1},
          lambda v: trace({k: v[k] for k in ('max_blocks_per_seq', 'pages')}))
print(f'extra name: traced {cache.traced}')
# CHECK-NEXT: extra name: traced 4

# CHECK-LABEL: preconditions
print('preconditions')
D16 = {'kind': 'divisible-by', 'divisor': 16}
NARROW = {'kind': 'range', 'min': 0, 'max': 2**31 - 1}
ARG1 = {'kind': 'equals', 'argument': 1, 'part': 'value', 'index': None}
ARG7 = dict(ARG1, argument=7)
STRIDE = {'kind': 'equals', 'argument': 0, 'part': 'stride', 'index': 1}
for fact, value, args in [
        (D16, 32, None), (D16, 24, None), (NARROW, 2**31 - 1, None),
        (NARROW, 2**31, None), (NARROW, -1, None), (ARG1, 5, [9, 5]),
        (ARG1, 5, [5, 9]), (ARG1, 5, None), (ARG7, 5, [5]),
        (STRIDE, 8, [{'strides': [64, 8]}]),
        (STRIDE, 8, [{'strides': [64, 4]}]), (STRIDE, 8, ['no strides'])]:
    print(f'{fact["kind"]} {value} {args}: '
          f'{compile_precondition(fact)(value, args)}')
try:
    compile_precondition({'kind': 'value-is-prime'})
except ManifestError as error:
    print('unknown kind:', error)
# CHECK-NEXT: divisible-by 32 None: True
# CHECK-NEXT: divisible-by 24 None: False
# CHECK-NEXT: range 2147483647 None: True
# CHECK-NEXT: range 2147483648 None: False
# CHECK-NEXT: range -1 None: False
# CHECK-NEXT: equals 5 [9, 5]: True
# CHECK-NEXT: equals 5 [5, 9]: False
# CHECK-NEXT: equals 5 None: None
# CHECK-NEXT: equals 5 [5]: False
# CHECK-NEXT: equals 8 [{'strides': [64, 8]}]: True
# CHECK-NEXT: equals 8 [{'strides': [64, 4]}]: False
# CHECK-NEXT: equals 8 ['no strides']: False
# CHECK-NEXT: unknown kind: unknown precondition kind 'value-is-prime'

# An `equals` contract: the kernel reads its argument 1 instead of the
# value, so a launch whose argument 1 differs must not happen.
manifest = {'version': 3, 'kernels': [{'symbol': '@m::@k', 'kept': [],
                                       'hoisted': [
    {'name': 'stride', 'argument': None, 'source': 'equals',
     'type': 'index', 'preconditions': [dict(ARG1, text='value == argument 1')]}]}]}
variant = Variant('k', {'stride': 64}, manifest, set())
ok = Launch(None, variant, {'stride': 64})
print('contract kept:', ok.arguments(['p', 64]))
try:
    ok.arguments(['p', 80])
except PreconditionError as error:
    print(error)
print('failure without arguments:', variant.failure({'stride': 64}, None))
print('failure with them:', variant.failure({'stride': 64}, ['p', 80]).text)
print('a value out of its type:',
      Variant('k', {'w': 1}, {'version': 3, 'kernels': [{
          'symbol': '@k', 'kept': [], 'hoisted': [{
              'name': 'w', 'argument': 0, 'type': 'i32', 'preconditions': [{
                  'kind': 'range', 'min': -2**31, 'max': 2**32 - 1,
                  'text': 'value fits i32'}]}]}]}, set())
      .failure({'w': 2**32}, None).text)
# CHECK-NEXT: contract kept: ['p', 64]
# CHECK-NEXT: @m::@k: 'stride' = 64 breaks value == argument 1; pass args= to KernelCache.get to get a kernel compiled for it
# CHECK-NEXT: failure without arguments: None
# CHECK-NEXT: failure with them: value == argument 1
# CHECK-NEXT: a value out of its type: value fits i32

# CHECK-LABEL: bounded
print('bounded')


def fill(retirer_type):
    gpu = FakeGPU()
    streams = [gpu.stream(f's{i}') for i in range(3)]
    bounded = KernelCache(Target('sm_90'), cache_dir=False,
                          loader=lambda objects: gpu.load(
                              objects['kernels'][:40]),
                          capacity=2, retirer=retirer_type(gpu))
    for pages in (1, 2, 3, 4, 5, 1, 2):
        launch = bounded.get('gather', {'max_blocks_per_seq': 9,
                                        'pages': pages}, trace)
        for stream in streams:
            gpu.launch(launch.module_for(stream), stream, 30)
        gpu.tick()
    with gpu.running():  # the GPU runs while close() waits for it
        bounded.close()
        bounded.retirer.close()
    gpu.run_until_idle()
    return bounded, gpu


bounded, gpu = fill(lambda gpu: flyhoist.ModuleRetirer(gpu))
print(f'compiled {bounded.compiled}, loads {bounded._resident.loads}, '
      f'evictions {bounded._resident.evictions}, faults {len(gpu.faults)}, '
      f'loaded at the end {len(gpu.loaded)}')
naive, naive_gpu = fill(NaiveRetirer)
print(f'naive: evictions {naive._resident.evictions}, faults '
      f'{len(naive_gpu.faults)}')
# CHECK-NEXT: compiled 5, loads 7, evictions 5, faults 0, loaded at the end 0
# CHECK-NEXT: naive: evictions 5, faults 7
try:
    KernelCache(Target('sm_90'), cache_dir=False, loader=lambda o: None)
except ValueError as error:
    print(error)
# CHECK-NEXT: a loader needs a backend (or retirer) to unload modules safely
