# The frontend's own context and module through the package: parse errors,
# hoisting with the pass's option string, located errors that leave the
# module unchanged, fingerprints, code objects for AMDGPU and NVVM.
# RUN: python3 %s 2>&1 | FileCheck %s

import os
import sys

import flyhoist
from flyhoist import CompileError, HoistError, MLIRError, Target

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'Inputs'))
from gather_trace import KERNEL  # noqa: E402


def kernel(width, name='max_blocks_per_seq'):
    return (KERNEL.replace('WIDTH', flyhoist.spec_param('w', name, width))
            .replace('PAGES', flyhoist.spec_param('n', 'pages', 4)))


context = flyhoist.Context()

# CHECK-LABEL: parse error
print('parse error')
try:
    context.parse('module {\n  %x = arith.addi %y, %y : i32\n}\n', 'bad.mlir')
except MLIRError as error:
    print(error)
# CHECK-NEXT: bad.mlir does not parse:
# CHECK-NEXT: bad.mlir:2:19: error: use of undeclared SSA value name

# CHECK-LABEL: hoist
print('hoist')
module = context.parse(kernel(128), 'kernel.mlir')
manifest = module.hoist()
(entry,) = manifest['kernels']
print(entry['symbol'], [(h['name'], h['argument']) for h in entry['hoisted']])
print('\n'.join(module.remarks))
# CHECK-NEXT: @kernels::@gather [('max_blocks_per_seq', 3)]
# CHECK-NEXT: kernel.mlir:4:12: remark: 'max_blocks_per_seq' hoisted in kernel @kernels::@gather: runtime argument 3
# CHECK-NEXT: kernel.mlir:5:12: remark: 'pages' kept specialized in kernel @kernels::@gather: loop bound or step
# CHECK-NEXT: kernel.mlir:9:7: note: needs 'pages' as a constant here
fingerprint = module.fingerprints()['kernels']
print(fingerprint == manifest['gpu_modules'][0]['fingerprint'])
# CHECK-NEXT: True

# CHECK-LABEL: identity
print('identity')
others = []
for width in (1, 64, 511):
    with context.parse(kernel(width), f'w{width}.mlir') as other:
        other.hoist('remarks=false')
        others.append(other.fingerprints()['kernels'])
print(all(f == fingerprint for f in others))
with context.parse(kernel(64), 's64.mlir') as a, \
        context.parse(kernel(65), 's65.mlir') as b:
    a.run_pipeline('builtin.module(materialize-specialization)')
    b.run_pipeline('builtin.module(materialize-specialization)')
    print(a.fingerprints() == b.fingerprints())
# CHECK-NEXT: True
# CHECK-NEXT: False


def expect(error_type, what, fn):
    try:
        fn()
    except error_type as error:
        print(f'{what}: {type(error).__name__}')
        print('\n'.join('  ' + line for line in str(error).splitlines()))
    else:
        print(f'{what}: NO ERROR')


# CHECK-LABEL: errors
print('errors')
fresh = context.parse(kernel(128), 'kernel.mlir')
before = fresh.text()
expect(HoistError, 'bad option', lambda: fresh.hoist('no-such-option=1'))
# CHECK-NEXT: bad option: HoistError
# CHECK-NEXT: hoist-stride-specialization failed:
# CHECK-NEXT: kernel.mlir:1:1: error: invalid options for hoist-stride-specialization: 'no-such-option=1'
# CHECK-NEXT: kernel.mlir:1:1: note: {{.*}}no such option no-such-option
expect(HoistError, 'divisibility', lambda: fresh.hoist('divisibility=3'))
# CHECK: divisibility: HoistError
# CHECK-NEXT: hoist-stride-specialization failed:
# CHECK-NEXT: kernel.mlir:1:1: error: divisibility=3 must be a power of two (or 0 for off)
conflict = context.parse(
    kernel(128).replace('%n = spec.param "pages" = 4',
                        '%n = spec.param "max_blocks_per_seq" = 4'),
    'conflict.mlir')
conflict_before = conflict.text()
expect(HoistError, 'conflict', lambda: conflict.hoist())
# CHECK: conflict: HoistError
# CHECK-NEXT: hoist-stride-specialization failed:
# CHECK-NEXT: conflict.mlir:5:12: error: parameter 'max_blocks_per_seq' has value 4 here but 128 elsewhere
# CHECK-NEXT: conflict.mlir:4:12: note: first defined here
print('unchanged:', fresh.text() == before, conflict.text() == conflict_before)
# CHECK-NEXT: unchanged: True True
expect(MLIRError, 'bad pipeline', lambda: fresh.run_pipeline('builtin.module(nope)'))
# CHECK-NEXT: bad pipeline: MLIRError
# CHECK-NEXT: invalid pipeline 'builtin.module(nope)':
# CHECK-NEXT: {{.*}}'nope'
# A pass that reports an error without failing still fails the compile.
expect(CompileError, 'bad format',
       lambda: fresh.compile(Target('gfx942', 'bogus')))
# CHECK: bad format: CompileError
# CHECK: kernel.mlir:1:1: error: Invalid format specified.
expect(ValueError, 'bad chip', lambda: Target('x86'))
# CHECK: bad chip: ValueError

# CHECK-LABEL: compile
print('compile')
amd = module.compile(Target('gfx942'))
ptx = module.compile(Target('sm_90'))
print({k: v[:4] for k, v in amd.items()})
print(b'.entry gather(' in ptx['kernels'], b'.target sm_90' in ptx['kernels'])
print('module left hoisted:', 'gpu.binary' not in module.text())
# CHECK-NEXT: {'kernels': b'\x7fELF'}
# CHECK-NEXT: True True
# CHECK-NEXT: module left hoisted: True

for m in (module, fresh, conflict):
    m.close()
context.close()
print('done')
# CHECK-NEXT: done
