# Option strings as the library reads them (flyhoist.options, C API 1.8):
# the pass's and the pipelines' typed values, the names a string sets, and
# the library's error as records. inference_options and
# Launch.memref_convention decide from them, not from the text: a flag
# without a value, a value in capitals, 0, and the name inside another
# option's quoted value (which a regex over the text takes for the option).
# RUN: python3 %s 2>&1 | FileCheck %s

from types import SimpleNamespace

from flyhoist import Launch, Target
from flyhoist.infer import inference_options
from flyhoist.ir import Context, MLIRError
from flyhoist.options import hoist_options, pipeline_options

context = Context()

parsed = hoist_options(context, 'divisibility=32 hoist-into-host')
print(parsed['explicit'], parsed['values']['divisibility'],
      parsed['values']['hoist-into-host'], parsed['values']['remarks'])
# CHECK: ['hoist-into-host', 'divisibility'] 32 True True

for options in ('', 'hoist-immediate-offsets', 'hoist-immediate-offsets=0',
                'remarks=false  hoist-immediate-offsets=False',
                "manifest='a hoist-immediate-offsets b'"):
    print(repr(inference_options(options, context)))
# CHECK-NEXT: 'hoist-immediate-offsets=true'
# CHECK-NEXT: 'hoist-immediate-offsets'
# CHECK-NEXT: 'hoist-immediate-offsets=0'
# CHECK-NEXT: 'remarks=false  hoist-immediate-offsets=False'
# CHECK-NEXT: "manifest='a hoist-immediate-offsets b' hoist-immediate-offsets=true"


def convention(chip, options):
    cache = SimpleNamespace(target=Target(chip, options=options),
                            context=context)
    return Launch(cache, None, {}).memref_convention


for chip, options in (('gfx942', ''),
                      ('gfx942', 'use-bare-ptr-memref-call-conv'),
                      ('sm_90', 'use-bare-ptr-memref-call-conv=True'),
                      ('sm_90', 'use-bare-ptr-memref-call-conv=0'),
                      ('gfx942', "toolkit='a use-bare-ptr-memref-call-conv b'")):
    print(chip, repr(options), convention(chip, options))
# CHECK-NEXT: gfx942 '' memref_descriptors
# CHECK-NEXT: gfx942 'use-bare-ptr-memref-call-conv' bare_pointers
# CHECK-NEXT: sm_90 'use-bare-ptr-memref-call-conv=True' bare_pointers
# CHECK-NEXT: sm_90 'use-bare-ptr-memref-call-conv=0' memref_descriptors
# CHECK-NEXT: gfx942 "toolkit='a use-bare-ptr-memref-call-conv b'" memref_descriptors
print(sorted(pipeline_options(context, 'flyhoist-nvvm-pipeline')['values']))
# CHECK-NEXT: ['O', 'chip', 'features', 'format', 'use-bare-ptr-memref-call-conv']

# A rejected string: MLIRError with the library's error and its reason.
for call in (lambda: hoist_options(context, 'divisibility=-1'),
             lambda: pipeline_options(context, 'flyhoist-amdgpu-pipeline',
                                      'O=fast')):
    try:
        call()
        print('accepted')
    except MLIRError as error:
        (record,) = error.records
        print(record['severity'], record['message'], '|',
              [note['message'] for note in record['notes']])
# CHECK-NEXT: error invalid options for hoist-stride-specialization: 'divisibility=-1' | ["divisibility: '-1' is not an unsigned 64-bit integer"]
# CHECK-NEXT: error invalid options for flyhoist-amdgpu-pipeline: 'O=fast' | ["O: 'fast' is not an unsigned 32-bit integer"]
print(context.take_diagnostics())
# CHECK-NEXT: []
