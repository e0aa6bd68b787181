# Errors a frontend author meets first, as Python exceptions with their
# reasons: an unknown chip (named with the known ones, before LLVM can abort
# the process; the list is the one the pipelines check, fly-opt's), a bad
# option value (the option parser's reason, not only on stderr), and the
# manifest of a module hoisted and lowered in one pipeline (why it is empty
# and how to get it).
# RUN: python3 %s fly-opt 2>%t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=STDERR --allow-empty < %t.err
# STDERR-NOT: {{.}}

import re
import subprocess
import sys

from flyhoist import (CompileError, Context, HoistError, KernelCache,
                      MLIRError, Target, known_chips)

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<?xf32>, %row: index) kernel {
      %w = spec.param "row_stride" = 64 : index
      %at = arith.muli %row, %w : index
      %v = memref.load %m[%at] : memref<?xf32>
      memref.store %v, %m[%at] : memref<?xf32>
      gpu.return
    }
  }
}
'''

# CHECK-LABEL: chips
print('chips')
for chip in ('gfx9999', 'sm_999', 'banana', 'gfx942;x'):
    for make in (Target, lambda c: KernelCache(c, cache_dir=False)):
        try:
            make(chip)
            print(chip, 'accepted')
        except ValueError as error:
            text = str(error)
            print(chip, 'ValueError:', text[:40], '|',
                  'gfx942' in text, 'gfx950' in text, 'sm_90' in text)
# CHECK-NEXT: gfx9999 ValueError: unknown chip 'gfx9999'; the known AMD ch | True True False
# CHECK-NEXT: gfx9999 ValueError: unknown chip 'gfx9999'; the known AMD ch | True True False
# CHECK-NEXT: sm_999 ValueError: unknown chip 'sm_999'; the known NVIDIA | False False True
# CHECK-NEXT: sm_999 ValueError: unknown chip 'sm_999'; the known NVIDIA | False False True
# CHECK-NEXT: banana ValueError: unknown chip 'banana'; the known chips a | True True True
# CHECK-NEXT: banana ValueError: unknown chip 'banana'; the known chips a | True True True
# CHECK-NEXT: gfx942;x ValueError: bad chip name 'gfx942;x' | True False False
# CHECK-NEXT: gfx942;x ValueError: bad chip name 'gfx942;x' | True False False
print([Target(c).chip for c in ('gfx942', 'gfx950', 'gfx90a', 'sm_90',
                                 'sm_80', 'gfx9-generic')])
# CHECK-NEXT: ['gfx942', 'gfx950', 'gfx90a', 'sm_90', 'sm_80', 'gfx9-generic']

# Hints, at construction, by Target and KernelCache alike: target features
# are not part of the name (where they go instead), a near spelling of a
# known chip is named, and the list is the family's the name looks like
# (NVIDIA chips for sm90, never AMD ones).
# CHECK-LABEL: chip hints
print('chip hints')
for chip in ('gfx942:xnack+', 'gfx942:sramecc-:xnack+', 'gfx942+xnack',
             'sm_90:+ptx80', 'sm_90a:ptx80', 'sm90', 'SM_90', 'compute_90',
             'gfx-942', 'GFX950', 'sm_91', '', None):
    for make in (Target, lambda c: KernelCache(c, cache_dir=False)):
        try:
            make(chip)
            print(chip, 'accepted')
        except ValueError as error:
            text = str(error)
            print(f'{chip!r}:', text.split(' the known')[0],
                  '| AMD listed:', 'gfx942' in text.split('known')[-1],
                  '| NVIDIA listed:', 'sm_90' in text.split('known')[-1])
# CHECK-NEXT: 'gfx942:xnack+': bad chip name 'gfx942:xnack+': target features are not part of the chip name; flyhoist-amdgpu-pipeline takes none and builds for the chip's defaults: Target('gfx942') | AMD listed: True | NVIDIA listed: False
# CHECK-NEXT: 'gfx942:xnack+': bad chip name 'gfx942:xnack+': target features
# CHECK-NEXT: 'gfx942:sramecc-:xnack+': bad chip name 'gfx942:sramecc-:xnack+': target features are not part of the chip name; {{.*}} Target('gfx942')
# CHECK-NEXT: 'gfx942:sramecc-:xnack+': bad chip name
# CHECK-NEXT: 'gfx942+xnack': bad chip name 'gfx942+xnack': target features are not part of the chip name; {{.*}} Target('gfx942')
# CHECK-NEXT: 'gfx942+xnack': bad chip name
# CHECK-NEXT: 'sm_90:+ptx80': bad chip name 'sm_90:+ptx80': target features are not part of the chip name; pass them as the pipeline's features option: Target('sm_90', options='features=+ptx80')
# CHECK-NEXT: 'sm_90:+ptx80': bad chip name
# CHECK-NEXT: 'sm_90a:ptx80': {{.*}} Target('sm_90a', options='features=+ptx80')
# CHECK-NEXT: 'sm_90a:ptx80': bad chip name
# CHECK-NEXT: 'sm90': unknown chip 'sm90'; did you mean sm_90? | AMD listed: False | NVIDIA listed: True
# CHECK-NEXT: 'sm90': unknown chip 'sm90'; did you mean sm_90? | AMD listed: False | NVIDIA listed: True
# CHECK-NEXT: 'SM_90': unknown chip 'SM_90'; did you mean sm_90? | AMD listed: False | NVIDIA listed: True
# CHECK-NEXT: 'SM_90': unknown chip 'SM_90'; did you mean sm_90?
# CHECK-NEXT: 'compute_90': unknown chip 'compute_90'; did you mean sm_90? | AMD listed: False | NVIDIA listed: True
# CHECK-NEXT: 'compute_90': unknown chip 'compute_90'; did you mean sm_90?
# CHECK-NEXT: 'gfx-942': unknown chip 'gfx-942'; did you mean gfx942? | AMD listed: True | NVIDIA listed: False
# CHECK-NEXT: 'gfx-942': unknown chip 'gfx-942'; did you mean gfx942?
# CHECK-NEXT: 'GFX950': unknown chip 'GFX950'; did you mean gfx950? | AMD listed: True | NVIDIA listed: False
# CHECK-NEXT: 'GFX950': unknown chip 'GFX950'; did you mean gfx950?
# CHECK-NEXT: 'sm_91': unknown chip 'sm_91'; | AMD listed: False | NVIDIA listed: True
# CHECK-NEXT: 'sm_91': unknown chip 'sm_91';
# CHECK-NEXT: '': bad chip name '': a chip is a non-empty string such as gfx942 or sm_90
# CHECK-NEXT: '': bad chip name ''
# CHECK-NEXT: None: bad chip name None: a chip is a non-empty string such as gfx942 or sm_90
# CHECK-NEXT: None: bad chip name None

# One list: fly-opt's pipeline error names exactly the chips Python knows.
fly_opt = sys.argv[1]
for kind, pipeline, chip in (('amdgpu', 'flyhoist-amdgpu-pipeline', 'gfx9999'),
                             ('nvvm', 'flyhoist-nvvm-pipeline', 'sm_999')):
    out = subprocess.run(
        [fly_opt, f'--pass-pipeline=builtin.module({pipeline}{{chip={chip}}})'],
        input=KERNEL, capture_output=True, text=True)
    listed = re.search(r'knows: (.*)', out.stderr)[1].split(', ')
    print(kind, 'agree:', listed == list(known_chips(kind)), len(listed) > 10,
          'LLVM ERROR' in out.stderr)
# CHECK-NEXT: amdgpu agree: True True False
# CHECK-NEXT: nvvm agree: True True False

# A chip slipped in through the pipeline options is caught by the pipeline.
context = Context()
module = context.parse(KERNEL, 'scale.mlir')
try:
    module.compile(Target('gfx942', options='chip=gfx9999'))
except CompileError as error:
    print('options chip:', str(error).splitlines()[1][:45])
# CHECK-NEXT: options chip: unknown amdgpu chip 'gfx9999'; LLVM {{.*}}

# CHECK-LABEL: option errors
print('option errors')
try:
    module.hoist('divisibility=banana')
except HoistError as error:
    print('hoist:', str(error).splitlines()[1])
    # The reasons travel as data: the notes of that one error.
    print('reasons:', [note['message'] for record in error.records
                       for note in record['notes']])
try:
    module.compile(Target('sm_90', options='O=banana'))
except CompileError as error:
    print('pipeline:', str(error).splitlines()[0])
# The package's own lines, located, naming what was rejected, and the
# library's typed check of the value (nothing read back from stderr):
# CHECK-NEXT: hoist: scale.mlir:1:1: error: invalid options for hoist-stride-specialization: 'divisibility=banana'
# CHECK-NEXT: reasons: ["divisibility: 'banana' is not an unsigned 64-bit integer"]
# CHECK-NEXT: pipeline: invalid pipeline '{{.*}}flyhoist-nvvm-pipeline{chip=sm_90 {{.*}}O=banana})':

# CHECK-LABEL: manifest after lowering
print('manifest after lowering')
lowered = context.parse(KERNEL, 'scale.mlir')
lowered.run_pipeline('builtin.module(hoist-stride-specialization,'
                     'flyhoist-nvvm-pipeline)')
try:
    print(lowered.manifest())
except MLIRError as error:
    print(str(error).splitlines()[1])
# CHECK-NEXT: scale.mlir:2:3: error: no manifest: the module is lowered (gpu.binary, no gpu.module), and what was hoisted was recorded on the gpu.modules lowering replaced; read the manifest between hoisting and lowering (two pipelines, flyhoistPrintManifest in between) or pass manifest=<file> to hoist-stride-specialization, which writes it as the pass ends
# Two pipelines: the manifest between them has what was hoisted.
two = context.parse(KERNEL, 'scale.mlir')
manifest = two.hoist()
two.run_pipeline('builtin.module(flyhoist-nvvm-pipeline)')
print('two pipelines:', [h['name'] for h in manifest['kernels'][0]['hoisted']])
# CHECK-NEXT: two pipelines: ['row_stride']
